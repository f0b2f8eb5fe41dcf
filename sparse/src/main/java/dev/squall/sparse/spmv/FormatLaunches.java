package dev.squall.sparse.spmv;

import dev.squall.sparse.format.BcsrFormat;
import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CooFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.DiaFormat;
import dev.squall.sparse.format.EllFormat;
import dev.squall.sparse.format.HybFormat;
import dev.squall.sparse.format.SellFormat;
import dev.squall.sparse.exec.DeviceArrays;
import dev.squall.sparse.exec.Launch;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.ArrayList;
import java.util.List;

/** The inspectors of each executor: convert CSR to the format's device arrays and list the launches. */
final class FormatLaunches {
    /** Work-group size of the SPMD kernels (a multiple of 32, as sub-group emulation requires). */
    static final int GROUP = BinnedCsrFormat.GPU_GROUP;
    /** Entries of one long-row segment in csr-binned: 8 per work-item of a group. */
    static final int SEGMENT = BinnedCsrFormat.GPU_SEGMENT;

    /** What an inspector produced: launches and a one-line description of the layout it chose. */
    record Built(List<Launch> launches, String detail) {
    }

    /** The vectors every executor shares: x, y, {alpha, beta}, and {alpha, 1} for accumulating passes. */
    record Vectors(KernelArray x, KernelArray y, KernelArray coef, KernelArray coefAcc) {
    }

    private FormatLaunches() {
    }

    /** Rows per work-item of CSR on CPU devices: enough to amortise a work-item, few enough to balance cores. */
    static final int CPU_BLOCK_ROWS = 256;

    /** The launches for {@code d}: GPU-style (many light work-items) on GPUs, CPU-style elsewhere. */
    static Built build(CsrMatrix a, SpmvFormat f, Precision p, Device d, Vectors v) {
        return build(a, f, p, v, d.info().isGpu());
    }

    /** The launches in GPU style ({@code gpu}) or CPU style, whatever the device (tests run both styles everywhere). */
    static Built build(CsrMatrix a, SpmvFormat f, Precision p, Vectors v, boolean gpu) {
        return build(a, f, p, v, gpu, needsLongOffsets(a.nnz()));
    }

    /** Entry offsets of 2^31 or more do not fit the 32-bit row pointers of every format but CSR's 64-bit variant. */
    static boolean needsLongOffsets(long nnz) {
        return nnz > Integer.MAX_VALUE;
    }

    /** As {@link #build(CsrMatrix, SpmvFormat, Precision, Vectors, boolean)}; {@code longOffsets} forces 64-bit row pointers (tests). */
    static Built build(CsrMatrix a, SpmvFormat f, Precision p, Vectors v, boolean gpu, boolean longOffsets) {
        return build(a, f, p, v, gpu, longOffsets, BinnedTuning.DEFAULT);
    }

    /** As above, with csr-binned's knobs ({@code t}; only csr-binned and csr-binned-two-launch take other than the default). */
    static Built build(CsrMatrix a, SpmvFormat f, Precision p, Vectors v, boolean gpu, boolean longOffsets, BinnedTuning t) {
        if (!t.equals(BinnedTuning.DEFAULT) && f != SpmvFormat.CSR_BINNED && f != SpmvFormat.CSR_BINNED_TWO_LAUNCH) {
            throw new IllegalArgumentException(f.cliName() + " takes no knobs (" + t.suffix() + "): only csr-binned and csr-binned-two-launch do");
        }
        int rows = a.rows();
        if (a.nnz() == 0) {
            return new Built(List.of(new Launch("scale", new Object[] {v.y(), v.coef(), rows}, null)), "no entries: y = beta y");
        }
        if (longOffsets) {
            if (f != SpmvFormat.CSR) {
                throw new IllegalArgumentException(f.cliName() + " keeps 32-bit entry offsets; a matrix of " + a.nnz()
                        + " entries needs 64-bit offsets (2^31 or more entries): use --format csr");
            }
            return new Built(List.of(new Launch("csrScalarLong",
                    new Object[] {longs(a.rowPtr()), ints(a.colIdx()), p.array(a.values()), v.x(), v.y(), v.coef(), rows}, null)),
                    "one work-item per row, 64-bit row pointers");
        }
        return switch (f) {
            case CSR -> {
                if (gpu) {
                    yield new Built(List.of(new Launch("csrScalar",
                            new Object[] {ints(a.rowPtr()), ints(a.colIdx()), p.array(a.values()), v.x(), v.y(), v.coef(), rows}, null)),
                            "one work-item per row");
                }
                int blocks = (rows + CPU_BLOCK_ROWS - 1) / CPU_BLOCK_ROWS;
                yield new Built(List.of(new Launch("csrRowBlocks", new Object[] {ints(a.rowPtr()), ints(a.colIdx()), p.array(a.values()),
                        v.x(), v.y(), v.coef(), rows, CPU_BLOCK_ROWS, blocks}, null)),
                        CPU_BLOCK_ROWS + " rows per work-item (CPU device), entries streamed, 2 accumulators");
            }
            case CSR_VECTOR -> {
                int lanes = lanesFor(a);
                long items = (long) rows * lanes;
                if (items > Integer.MAX_VALUE - GROUP) throw new IllegalArgumentException("csr-vector: " + rows + " rows x " + lanes + " lanes is too many work-items");
                WorkerGrid grid = WorkerGrid.of(roundUp(items, GROUP)).withLocal(GROUP);
                yield new Built(List.of(new Launch("csrVector", new Object[] {null, ints(a.rowPtr()), ints(a.colIdx()),
                        p.array(a.values()), v.x(), v.y(), v.coef(), rows, lanes}, grid)), lanes + " lanes per row");
            }
            case CSR_MERGE -> {
                long total = (long) rows + a.nnz();
                if (total > Integer.MAX_VALUE - 1024) throw new IllegalArgumentException("csr-merge: rows + nnz = " + total + " exceeds 2^31");
                int per = gpu ? 8 : 256;
                int items = (int) ((total + per - 1) / per);
                KernelArray carry = p.vector(items);
                IntArray carryRow = new IntArray(items);
                List<Launch> l = List.of(
                        new Launch("csrMerge", new Object[] {ints(a.rowPtr()), ints(a.colIdx()), p.array(a.values()), v.x(), v.y(), v.coef(),
                                carry, carryRow, rows, a.nnz(), per, items}, null),
                        new Launch("carryFix", new Object[] {v.y(), v.coef(), carry, carryRow, items}, null));
                yield new Built(l, per + " merge items (rows + nonzeros) per work-item, " + items + " work-items");
            }
            case CSR_BINNED, CSR_BINNED_TWO_LAUNCH -> {
                BinnedCsrFormat b = BinnedCsrFormat.from(a, t.group(), t.segLen(), -1, t.perLane(), t.warpMax(), t.byLength());
                boolean oneLaunch = f == SpmvFormat.CSR_BINNED;
                KernelArray partial = p.vector(b.segRow().length);
                IntArray longSeg = ints(b.longSeg());
                IntArray segCount = new IntArray(Math.max(1, b.longRow().length)); // zero; the last group of a row re-arms it
                List<Launch> l = new ArrayList<>();
                l.add(new Launch(t.unroll() == 4 ? "csrBinnedQuad" : "csrBinned", new Object[] {null, ints(b.binGroup()), ints(b.binLanes()), ints(b.binItem()), ints(b.rowList()),
                        ints(b.listPtr()), ints(b.segRow()), ints(b.segStart()), ints(b.segEnd()), ints(b.entryCol()), p.array(b.entryVal()),
                        v.x(), v.y(), v.coef(), partial, b.bins(), ints(segLong(b.longSeg(), b.segRow().length)), longSeg, segCount,
                        oneLaunch ? 1 : 0}, WorkerGrid.of((long) b.groups() * b.group()).withLocal(b.group())));
                if (!oneLaunch && b.longRow().length > 0) {
                    l.add(new Launch("segmentSums", new Object[] {ints(b.longRow()), longSeg, partial, v.y(), v.coef(),
                            b.longRow().length}, null));
                }
                String knobs = t.equals(BinnedTuning.DEFAULT) ? "" : "knobs " + t.suffix().substring(1) + " (group " + b.group()
                        + ", " + t.unroll() + " entries a lane in flight" + (t.byLength() ? ", bins by row length" : "") + "): ";
                yield new Built(l, knobs + b.describe() + (b.longRow().length == 0 ? "" : oneLaunch
                        ? ", long rows finished by their last group (one-segment rows stored directly)" : ", long rows finished by a second launch"));
            }
            case CSR_STREAM, CSR_STREAM_64 -> {
                BinnedCsrFormat b = BinnedCsrFormat.from(a, GROUP, SEGMENT, f == SpmvFormat.CSR_STREAM ? 32 : 64);
                KernelArray partial = p.vector(b.segRow().length);
                IntArray segCount = new IntArray(Math.max(1, b.longRow().length));
                int[] streamItem = b.streamItem().length == 0 ? new int[1] : b.streamItem();
                yield new Built(List.of(new Launch("csrBinnedStream", new Object[] {null, ints(b.binGroup()), ints(b.binLanes()), ints(b.binItem()),
                        ints(b.rowList()), ints(b.listPtr()), ints(b.segRow()), ints(b.segStart()), ints(b.segEnd()), ints(b.entryCol()),
                        p.array(b.entryVal()), v.x(), v.y(), v.coef(), partial, b.bins(), ints(segLong(b.longSeg(), b.segRow().length)),
                        ints(b.longSeg()), segCount, ints(streamItem)}, WorkerGrid.of((long) b.groups() * GROUP).withLocal(GROUP))),
                        b.describe() + (b.longRow().length == 0 ? "" : ", long rows finished by their last group"));
            }
            case COO -> {
                List<Launch> l = new ArrayList<>();
                String detail = coo(CooFormat.from(a), p, gpu, v, v.coef(), true, l);
                yield new Built(l, detail);
            }
            case ELL -> {
                EllFormat e = EllFormat.from(a);
                yield new Built(List.of(ell(e, p, v)), "width " + e.width() + ", " + pct(a.nnz(), (long) e.width() * rows) + " of slots used");
            }
            case SELL -> {
                int c = 32;
                int sigma = 512;
                SellFormat s = SellFormat.from(a, c, sigma);
                yield new Built(List.of(new Launch("sell", new Object[] {ints(s.chunkPtr()), ints(s.slotLen()), ints(s.perm()),
                        ints(s.col()), p.array(s.val()), v.x(), v.y(), v.coef(), s.slots(), c}, null)),
                        "C " + c + ", sigma " + sigma + ", " + pct(a.nnz(), s.storedSlots()) + " of slots used");
            }
            case DIA -> {
                DiaFormat dia = DiaFormat.from(a);
                yield new Built(List.of(new Launch("dia", new Object[] {ints(dia.offsets()), p.array(dia.val()), v.x(), v.y(), v.coef(),
                        rows, a.cols(), dia.diagonals()}, null)),
                        dia.diagonals() + " diagonals, " + pct(a.nnz(), (long) dia.diagonals() * rows) + " of slots used");
            }
            case BCSR -> {
                BcsrFormat b = BcsrFormat.from(a, p.bytes());
                yield new Built(List.of(new Launch("bcsr", new Object[] {ints(b.blockPtr()), ints(b.blockCol()), ints(b.mask()), p.array(b.val()),
                        v.x(), v.y(), v.coef(), rows, b.r(), b.c()}, null)),
                        b.r() + "x" + b.c() + " blocks, " + b.blocks() + " stored, " + pct(a.nnz(), (long) b.blocks() * b.r() * b.c()) + " of slots used");
            }
            case HYB -> {
                HybFormat h = HybFormat.from(a);
                List<Launch> l = new ArrayList<>();
                l.add(ell(h.ell(), p, v));
                String detail = "ELL width " + h.ell().width() + " + COO " + h.coo().nnz() + " entries";
                if (h.coo().nnz() > 0) coo(h.coo(), p, gpu, v, v.coefAcc(), false, l);
                yield new Built(l, detail);
            }
        };
    }

    private static Launch ell(EllFormat e, Precision p, Vectors v) {
        return new Launch("ell", new Object[] {ints(e.rowLen()), ints(e.col()), p.array(e.val()), v.x(), v.y(), v.coef(), e.rows()}, null);
    }

    private static String coo(CooFormat c, Precision p, boolean gpu, Vectors v, KernelArray coef, boolean writeEmpty, List<Launch> out) {
        int chunk = gpu ? 8 : 256;
        int chunks = (c.nnz() + chunk - 1) / chunk;
        KernelArray carry = p.vector(chunks);
        IntArray carryRow = new IntArray(Math.max(1, chunks));
        out.add(new Launch("cooChunks", new Object[] {ints(c.row()), ints(c.col()), p.array(c.val()), v.x(), v.y(), coef, carry, carryRow,
                c.nnz(), c.rows(), chunk, chunks, writeEmpty ? 1 : 0}, null));
        out.add(new Launch("carryFix", new Object[] {v.y(), coef, carry, carryRow, chunks}, null));
        return chunk + " entries per work-item, " + chunks + " work-items";
    }

    /** For each long-row segment, the index of its long row ({@code longSeg[j] <= segment < longSeg[j + 1]}). */
    static int[] segLong(int[] longSeg, int segments) {
        int[] r = new int[segments];
        for (int j = 0; j + 1 < longSeg.length; j++) {
            for (int q = longSeg[j]; q < longSeg[j + 1]; q++) r[q] = j;
        }
        return r;
    }

    /** Lanes per row for CSR-vector: the power of two nearest the mean row length, 2..32. */
    static int lanesFor(CsrMatrix a) {
        double mean = a.rows() == 0 ? 0 : (double) a.nnz() / a.rows();
        int lanes = 2;
        while (lanes < 32 && lanes * 1.5 < mean) lanes <<= 1;
        return lanes;
    }

    static IntArray ints(int[] v) {
        return DeviceArrays.ints(v);
    }

    private static LongArray longs(int[] v) {
        LongArray r = new LongArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) r.set(i, v[i]);
        return r;
    }

    private static long roundUp(long v, long m) {
        return Math.max(m, (v + m - 1) / m * m);
    }

    private static String pct(long used, long slots) {
        return slots == 0 ? "100%" : String.format("%.0f%%", 100.0 * used / slots);
    }
}
