package dev.squall.sparse.spmv;

import java.util.Arrays;
import java.util.Locale;

/** The SpMV executors, by the names the command line uses ({@code csr-vector}, {@code sell}, ...). */
public enum SpmvFormat {
    /** CSR, one work-item per row. */
    CSR,
    /** CSR, a power-of-two group of lanes per row (tuned to the mean row length), sub-group reduction. */
    CSR_VECTOR,
    /** CSR with merge-path load balancing: equal shares of rows + nonzeros per work-item. */
    CSR_MERGE,
    /**
     * CSR with rows binned by length: lanes per row chosen per bin, long rows split over whole work-groups,
     * whose partial sums the last group of each row adds (one launch).
     */
    CSR_BINNED,
    /** As {@link #CSR_BINNED}, long rows' partial sums added by a second launch (kept to compare on GPUs). */
    CSR_BINNED_TWO_LAUNCH,
    /**
     * As {@link #CSR_BINNED} (one launch), rows of at most 32 entries in CSR-stream blocks (consecutive short rows,
     * up to 1024 entries a block, read as one coalesced stream by a work-group, each row summed from local memory).
     */
    CSR_STREAM,
    /** As {@link #CSR_STREAM} with rows of up to 64 entries in the stream blocks. */
    CSR_STREAM_64,
    /** Row-sorted COO, segmented reduction in two passes, no atomics. */
    COO,
    /** ELLPACK, column-major. */
    ELL,
    /** SELL-C-σ: sorted, chunked, per-chunk padded ELL. */
    SELL,
    /** Diagonals. */
    DIA,
    /** ELL + COO for the overflow. */
    HYB,
    /** Block CSR, R x C (1..4 each) chosen by the inspector for the fewest bytes moved. */
    BCSR;

    /** The command-line name. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses a command-line name. */
    public static SpmvFormat parse(String s) {
        for (SpmvFormat f : values()) if (f.cliName().equals(s.strip().toLowerCase(Locale.ROOT))) return f;
        throw new IllegalArgumentException("unknown format '" + s + "'; known: "
                + Arrays.stream(values()).map(SpmvFormat::cliName).toList() + " and auto");
    }
}
