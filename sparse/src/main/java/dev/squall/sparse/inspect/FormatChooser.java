package dev.squall.sparse.inspect;

import dev.squall.sparse.format.BcsrFormat;
import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks an SpMV format for a matrix and device from row-length statistics, and says why;
 * optionally confirms the pick with a few timed trial runs of the likely candidates, cached per
 * matrix and device for the life of the process.
 *
 * <pre>{@code
 * FormatChooser.Choice c = FormatChooser.choose(a, device);
 * System.out.println(c.format() + ": " + c.reason());
 * FormatChooser.Choice t = FormatChooser.tuned(a, Precision.FP64, device, 5);  // timed trials
 * }</pre>
 */
public final class FormatChooser {
    /** A decision: the format and a sentence giving the reason. */
    public record Choice(SpmvFormat format, String reason, RowStats stats) {
    }

    /** On CPUs, merge-path CSR only pays when one row holds more than 1/CPU_SHARE of all entries. */
    static final int CPU_SHARE = 64;
    /** BCSR is picked on GPUs when it moves at most this fraction of CSR's bytes. */
    static final double BCSR_BYTES = 0.85;

    /**
     * Most fenced long-row segments for which csr-binned's one launch beats two. Each segment of a row cut in
     * two or more publishes its partial with a global fence and an atomic (about 1.5 us of a resident group's
     * time on a GPU), spread over the resident groups, where the second launch costs a few microseconds: about
     * three waves of resident groups (the measured break-even is in sparse/PERF.md).
     */
    static final long FENCE_BUDGET = 3072;

    private static final Map<String, Choice> TRIALS = new ConcurrentHashMap<>();

    private FormatChooser() {
    }

    /**
     * The rules, in order. On GPUs: few diagonals that are mostly full → DIA (stencils, banded);
     * dense blocks that save bytes → BCSR; rows of similar length → SELL-C-σ (coalesced, little padding); otherwise (skewed, power-law,
     * uneven rows) → row-binned CSR, which gives each row lanes for its length and long rows whole
     * work-groups, so neither a long row nor a short one idles a sub-group. On CPUs: a row holding
     * over 1/64 of the entries → merge-path CSR (even work per work-item), otherwise CSR in blocks
     * of rows (each core streams its rows' entries, whatever the structure).
     */
    public static Choice choose(CsrMatrix a, Device device) {
        return choose(a, device.info().isGpu());
    }

    /** The rules of {@link #choose(CsrMatrix, Device)} for a GPU ({@code gpu}) or another device. */
    public static Choice choose(CsrMatrix a, boolean gpu) {
        RowStats s = RowStats.of(a);
        if (s.nnz() == 0) return new Choice(SpmvFormat.CSR, "no entries", s);
        double diaFill = (double) s.nnz() / ((double) s.diagonals() * s.rows());
        // DIA only on GPUs: a CPU core walking 27 diagonal streams per row ran at half the speed of
        // CSR row blocks on the JVM and PoCL (27-point stencil, 1M rows), though it moves fewer bytes
        if (gpu && s.diagonals() <= 64 && diaFill >= 0.6) {
            return new Choice(SpmvFormat.DIA, String.format("%d diagonals, %.0f%% full: banded/stencil structure", s.diagonals(), 100 * diaFill), s);
        }
        boolean skewed = s.max() > 16 * Math.max(1, s.mean()) && s.max() >= 64;
        if (gpu) {
            Choice blocks = denseBlocks(a, s);
            if (blocks != null) return blocks;
            if (!skewed && s.sellFill() >= 0.7) {
                return new Choice(SpmvFormat.SELL, String.format("row lengths similar (SELL fill %.0f%%): coalesced SELL-32-512", 100 * s.sellFill()), s);
            }
            return binned(a, s, skewed);
        }
        // CPU CSR hands each core contiguous blocks of rows: only a row holding a large share of all
        // entries unbalances the cores, and then the merge path's equal shares pay for its second pass
        if (skewed && (long) s.max() * CPU_SHARE > s.nnz()) {
            return new Choice(SpmvFormat.CSR_MERGE, String.format("skewed rows: longest %d vs mean %.1f holds over 1/%d of the entries,"
                    + " merge path balances the work", s.max(), s.mean(), CPU_SHARE), s);
        }
        if (skewed) {
            return new Choice(SpmvFormat.CSR, String.format("CPU device, skewed rows (longest %d, mean %.1f) but none holds 1/%d of the"
                    + " entries: CSR row blocks stay balanced and stream with no padding", s.max(), s.mean(), CPU_SHARE), s);
        }
        return new Choice(SpmvFormat.CSR, "CPU device: CSR row blocks stream each row's entries with no padding", s);
    }

    /**
     * csr-binned in one launch or two: one launch unless more than {@value #FENCE_BUDGET} long-row segments would
     * each pay a fence and an atomic (rows of one segment pay neither), where a second launch costs less.
     */
    static Choice binned(CsrMatrix a, RowStats s, boolean skewed) {
        return binned(a, s, skewed, FENCE_BUDGET);
    }

    /** As {@link #binned(CsrMatrix, RowStats, boolean)} with another fence budget (tests). */
    static Choice binned(CsrMatrix a, RowStats s, boolean skewed, long budget) {
        long fenced = BinnedCsrFormat.fencedSegments(a, BinnedCsrFormat.GPU_SEGMENT);
        boolean two = fenced > budget;
        String why = fenced == 0 ? "no row needs more than one work-group, one launch"
                : two ? String.format("%d long-row segments would each pay a fence and an atomic (> %d): their sums in a second launch", fenced, budget)
                : String.format("%d long-row segments pay a fence and an atomic (<= %d, one-segment rows none): one launch", fenced, budget);
        return new Choice(two ? SpmvFormat.CSR_BINNED_TWO_LAUNCH : SpmvFormat.CSR_BINNED, String.format("%s rows (longest %d, mean %.1f, cv %.2f,"
                + " SELL fill %.0f%%): rows binned by length, lanes per bin, long rows split over work-groups; %s",
                skewed ? "skewed" : "uneven", s.max(), s.mean(), s.cv(), 100 * s.sellFill(), why), s);
    }

    /**
     * BCSR when the matrix is made of dense blocks: a 2x2 count first (one pass; scattered matrices
     * fill under half of their 2x2 blocks and stop here), then the inspector's best R x C, taken
     * when its blocks are mostly full and it moves at most {@value #BCSR_BYTES} of CSR's bytes
     * (SpMV is bandwidth-bound, so bytes decide; fp64 values assumed, fp32 favours blocks more).
     */
    static Choice denseBlocks(CsrMatrix a, RowStats s) {
        if (BcsrFormat.shape(a, 2, 2, 8).fill() < 0.5) return null;
        BcsrFormat.Shape b = BcsrFormat.bestShape(a, 8);
        long csrBytes = 12L * a.nnz() + 4L * (a.rows() + 1);
        double ratio = (double) b.bytes() / csrBytes;
        if (b.r() * b.c() == 1 || b.fill() < 0.6 || ratio > BCSR_BYTES) return null;
        return new Choice(SpmvFormat.BCSR, String.format("dense %dx%d blocks (%.0f%% full): BCSR moves %.0f%% of CSR's bytes",
                b.r(), b.c(), 100 * b.fill(), 100 * ratio), s);
    }

    /**
     * Times the rule's pick and the other plausible formats ({@code runs} executions each, after a
     * warm-up) and returns the fastest, remembering the answer for this matrix, device and precision.
     */
    public static Choice tuned(CsrMatrix a, Precision p, Device device, int runs) {
        String key = fingerprint(a) + "@" + device.id() + "/" + p;
        Choice cached = TRIALS.get(key);
        if (cached != null) return cached;
        Choice rule = choose(a, device);
        List<SpmvFormat> candidates = new ArrayList<>(List.of(rule.format()));
        for (SpmvFormat f : new SpmvFormat[] {SpmvFormat.CSR, SpmvFormat.CSR_VECTOR, SpmvFormat.CSR_BINNED, SpmvFormat.SELL,
                SpmvFormat.CSR_MERGE, SpmvFormat.DIA, SpmvFormat.BCSR}) {
            if (!candidates.contains(f)) candidates.add(f);
        }
        double[] x = new double[a.cols()];
        Arrays.fill(x, 1);
        SpmvFormat best = rule.format();
        double bestMs = Double.POSITIVE_INFINITY;
        StringBuilder log = new StringBuilder();
        for (SpmvFormat f : candidates) {
            try (SpmvExecutor e = SpmvExecutor.create(a, f, p, device)) {
                e.setX(x);
                e.execute();
                e.batchMillis(5);
                double ms = Double.POSITIVE_INFINITY;
                for (int r = 0; r < runs; r++) ms = Math.min(ms, e.batchMillis(5));
                log.append(String.format(" %s %.3f ms;", f.cliName(), ms));
                if (ms < bestMs) {
                    bestMs = ms;
                    best = f;
                }
            } catch (IllegalArgumentException unfit) {
                log.append(' ').append(f.cliName()).append(" unfit;");
            }
        }
        Choice c = new Choice(best, "fastest in timed trials (rule said " + rule.format().cliName() + "):" + log, rule.stats());
        TRIALS.put(key, c);
        return c;
    }

    /** Identifies a matrix by shape and a hash of its pattern and values. */
    static String fingerprint(CsrMatrix a) {
        long h = 1125899906842597L;
        for (int i = 0; i <= a.rows(); i++) h = 31 * h + a.rowStart(i);
        for (int k = 0; k < a.nnz(); k++) h = 31 * (31 * h + a.colIndex(k)) + Double.doubleToLongBits(a.value(k));
        return a.rows() + "x" + a.cols() + ":" + a.nnz() + ":" + Long.toHexString(h);
    }
}
