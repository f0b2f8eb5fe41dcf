package dev.squall.sparse.spmv;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.longs;
import static dev.squall.sparse.exec.DeviceArrays.values;
import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.exec.CallTasks;
import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.BcsrFormat;
import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CooFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.DiaFormat;
import dev.squall.sparse.format.EllFormat;
import dev.squall.sparse.format.HybFormat;
import dev.squall.sparse.format.SellFormat;
import dev.squall.sparse.spmv.kernels.BinnedCsrKernels;
import dev.squall.sparse.spmv.kernels.CooKernels;
import dev.squall.sparse.spmv.kernels.CsrKernels;
import dev.squall.sparse.spmv.kernels.DiaBcsrKernels;
import dev.squall.sparse.spmv.kernels.EllKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;

/** The inspectors of each executor: convert CSR to the format's device arrays and give the launches of one product. */
final class FormatLaunches {
    /** Work-group size of the SPMD kernels (a multiple of 32, as sub-group emulation requires). */
    static final int GROUP = BinnedCsrFormat.GPU_GROUP;
    /** Entries of one long-row segment in csr-binned: 8 per work-item of a group. */
    static final int SEGMENT = BinnedCsrFormat.GPU_SEGMENT;

    /** What an inspector produced: its launches and a one-line description of the layout it chose. */
    record Built(LaunchRunner.Launches launches, String detail) {
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
        String step = f.cliName() + "/";
        if (a.nnz() == 0) {
            return new Built(g -> g.graph().task(g.name(step + "scale"), CsrKernels.scale.at(p), v.y(), v.coef(), rows), "no entries: y = beta y");
        }
        if (longOffsets) {
            if (f != SpmvFormat.CSR) {
                throw new IllegalArgumentException(f.cliName() + " keeps 32-bit entry offsets; a matrix of " + a.nnz()
                        + " entries needs 64-bit offsets (2^31 or more entries): use --format csr");
            }
            LongArray rowPtr = longs(a.rowPtr());
            IntArray col = ints(a.colIdx());
            KernelArray val = values(p, a.values());
            return new Built(g -> g.graph().task(g.name(step + "rows-64-bit-offsets"), CsrKernels.csrScalarLong.at(p), rowPtr, col, val,
                    v.x(), v.y(), v.coef(), rows), "one work-item per row, 64-bit row pointers");
        }
        return switch (f) {
            case CSR -> {
                IntArray rowPtr = ints(a.rowPtr());
                IntArray col = ints(a.colIdx());
                KernelArray val = values(p, a.values());
                if (gpu) {
                    yield new Built(g -> g.graph().task(g.name(step + "rows"), CsrKernels.csrScalar.at(p), rowPtr, col, val, v.x(), v.y(), v.coef(), rows),
                            "one work-item per row");
                }
                int blocks = (rows + CPU_BLOCK_ROWS - 1) / CPU_BLOCK_ROWS;
                yield new Built(g -> g.graph().task(g.name(step + "row-blocks"), CsrKernels.csrRowBlocks.at(p), rowPtr, col, val,
                        v.x(), v.y(), v.coef(), rows, CPU_BLOCK_ROWS, blocks),
                        CPU_BLOCK_ROWS + " rows per work-item (CPU device), entries streamed, 2 accumulators");
            }
            case CSR_VECTOR -> {
                int lanes = lanesFor(a);
                long items = (long) rows * lanes;
                if (items > Integer.MAX_VALUE - GROUP) throw new IllegalArgumentException("csr-vector: " + rows + " rows x " + lanes + " lanes is too many work-items");
                WorkerGrid grid = WorkerGrid.of(roundUp(items, GROUP)).withLocal(GROUP);
                IntArray rowPtr = ints(a.rowPtr());
                IntArray col = ints(a.colIdx());
                KernelArray val = values(p, a.values());
                yield new Built(g -> g.graph().task(g.name(step + "rows"), grid, CsrKernels.csrVector.at(p), new KernelContext(), rowPtr, col, val,
                        v.x(), v.y(), v.coef(), rows, lanes), lanes + " lanes per row");
            }
            case CSR_MERGE -> {
                long total = (long) rows + a.nnz();
                if (total > Integer.MAX_VALUE - 1024) throw new IllegalArgumentException("csr-merge: rows + nnz = " + total + " exceeds 2^31");
                int per = gpu ? 8 : 256;
                int items = (int) ((total + per - 1) / per);
                KernelArray carry = zeros(p, items);
                IntArray carryRow = new IntArray(items);
                IntArray rowPtr = ints(a.rowPtr());
                IntArray col = ints(a.colIdx());
                KernelArray val = values(p, a.values());
                int nnz = a.nnz();
                yield new Built(g -> g.graph()
                        .task(g.name(step + "merge"), CsrKernels.csrMerge.at(p), rowPtr, col, val, v.x(), v.y(), v.coef(), carry, carryRow,
                                rows, nnz, per, items)
                        .task(g.name(step + "carry-fix"), CooKernels.carryFix.at(p), v.y(), v.coef(), carry, carryRow, items),
                        per + " merge items (rows + nonzeros) per work-item, " + items + " work-items");
            }
            case CSR_BINNED, CSR_BINNED_TWO_LAUNCH -> {
                BinnedCsrFormat b = BinnedCsrFormat.from(a, t.group(), t.segLen(), -1, t.perLane(), t.warpMax(), t.byLength());
                boolean oneLaunch = f == SpmvFormat.CSR_BINNED;
                KernelArray partial = zeros(p, b.segRow().length);
                IntArray longSeg = ints(b.longSeg());
                IntArray segCount = new IntArray(Math.max(1, b.longRow().length)); // zero; the last group of a row re-arms it
                IntArray binGroup = ints(b.binGroup()), binLanes = ints(b.binLanes()), binItem = ints(b.binItem()), rowList = ints(b.rowList());
                IntArray listPtr = ints(b.listPtr()), segRow = ints(b.segRow()), segStart = ints(b.segStart()), segEnd = ints(b.segEnd());
                IntArray col = ints(b.entryCol());
                KernelArray val = values(p, b.entryVal());
                IntArray segLong = ints(segLong(b.longSeg(), b.segRow().length));
                IntArray longRow = ints(b.longRow());
                int bins = b.bins();
                int longRows = b.longRow().length;
                var kernel = (t.unroll() == 4 ? BinnedCsrKernels.csrBinnedQuad : BinnedCsrKernels.csrBinned).at(p);
                WorkerGrid grid = WorkerGrid.of((long) b.groups() * b.group()).withLocal(b.group());
                LaunchRunner.Launches launches = g -> {
                    g.graph().task(g.name(step + "bins"), grid, kernel, new KernelContext(), binGroup, binLanes, binItem, rowList, listPtr, segRow,
                            segStart, segEnd, col, val, v.x(), v.y(), v.coef(), partial, bins, segLong, longSeg, segCount, oneLaunch ? 1 : 0);
                    if (!oneLaunch && longRows > 0) {
                        g.graph().task(g.name(step + "long-rows"), BinnedCsrKernels.segmentSums.at(p), longRow, longSeg, partial, v.y(), v.coef(), longRows);
                    }
                };
                String knobs = t.equals(BinnedTuning.DEFAULT) ? "" : "knobs " + t.suffix().substring(1) + " (group " + b.group()
                        + ", " + t.unroll() + " entries a lane in flight" + (t.byLength() ? ", bins by row length" : "") + "): ";
                yield new Built(launches, knobs + b.describe() + (b.longRow().length == 0 ? "" : oneLaunch
                        ? ", long rows finished by their last group (one-segment rows stored directly)" : ", long rows finished by a second launch"));
            }
            case CSR_STREAM, CSR_STREAM_64 -> {
                BinnedCsrFormat b = BinnedCsrFormat.from(a, GROUP, SEGMENT, f == SpmvFormat.CSR_STREAM ? 32 : 64);
                KernelArray partial = zeros(p, b.segRow().length);
                IntArray segCount = new IntArray(Math.max(1, b.longRow().length));
                int[] streamItem = b.streamItem().length == 0 ? new int[1] : b.streamItem();
                IntArray binGroup = ints(b.binGroup()), binLanes = ints(b.binLanes()), binItem = ints(b.binItem()), rowList = ints(b.rowList());
                IntArray listPtr = ints(b.listPtr()), segRow = ints(b.segRow()), segStart = ints(b.segStart()), segEnd = ints(b.segEnd());
                IntArray col = ints(b.entryCol());
                KernelArray val = values(p, b.entryVal());
                IntArray segLong = ints(segLong(b.longSeg(), b.segRow().length));
                IntArray longSeg = ints(b.longSeg());
                IntArray stream = ints(streamItem);
                int bins = b.bins();
                WorkerGrid grid = WorkerGrid.of((long) b.groups() * GROUP).withLocal(GROUP);
                yield new Built(g -> g.graph().task(g.name(step + "bins"), grid, BinnedCsrKernels.csrBinnedStream.at(p), new KernelContext(), binGroup, binLanes, binItem,
                        rowList, listPtr, segRow, segStart, segEnd, col, val, v.x(), v.y(), v.coef(), partial, bins, segLong, longSeg, segCount, stream),
                        b.describe() + (b.longRow().length == 0 ? "" : ", long rows finished by their last group"));
            }
            case COO -> {
                Coo coo = coo(CooFormat.from(a), p, gpu, v, v.coef(), true, step);
                yield new Built(coo.launches(), coo.detail());
            }
            case ELL -> {
                EllFormat e = EllFormat.from(a);
                yield new Built(ell(e, p, v, step + "rows"), "width " + e.width() + ", " + pct(a.nnz(), (long) e.width() * rows) + " of slots used");
            }
            case SELL -> {
                int c = 32;
                int sigma = 512;
                SellFormat s = SellFormat.from(a, c, sigma);
                IntArray chunkPtr = ints(s.chunkPtr()), slotLen = ints(s.slotLen()), perm = ints(s.perm()), col = ints(s.col());
                KernelArray val = values(p, s.val());
                int slots = s.slots();
                yield new Built(g -> g.graph().task(g.name(step + "chunks"), EllKernels.sell.at(p), chunkPtr, slotLen, perm, col, val,
                        v.x(), v.y(), v.coef(), slots, c),
                        "C " + c + ", sigma " + sigma + ", " + pct(a.nnz(), s.storedSlots()) + " of slots used");
            }
            case DIA -> {
                DiaFormat dia = DiaFormat.from(a);
                IntArray offsets = ints(dia.offsets());
                KernelArray val = values(p, dia.val());
                int cols = a.cols();
                int diagonals = dia.diagonals();
                yield new Built(g -> g.graph().task(g.name(step + "rows"), DiaBcsrKernels.dia.at(p), offsets, val, v.x(), v.y(), v.coef(),
                        rows, cols, diagonals),
                        dia.diagonals() + " diagonals, " + pct(a.nnz(), (long) dia.diagonals() * rows) + " of slots used");
            }
            case BCSR -> {
                BcsrFormat b = BcsrFormat.from(a, p.bytes());
                IntArray blockPtr = ints(b.blockPtr()), blockCol = ints(b.blockCol()), mask = ints(b.mask());
                KernelArray val = values(p, b.val());
                int r = b.r();
                int c = b.c();
                yield new Built(g -> g.graph().task(g.name(step + "block-rows"), DiaBcsrKernels.bcsr.at(p), blockPtr, blockCol, mask, val,
                        v.x(), v.y(), v.coef(), rows, r, c),
                        b.r() + "x" + b.c() + " blocks, " + b.blocks() + " stored, " + pct(a.nnz(), (long) b.blocks() * b.r() * b.c()) + " of slots used");
            }
            case HYB -> {
                HybFormat h = HybFormat.from(a);
                LaunchRunner.Launches ell = ell(h.ell(), p, v, step + "ell");
                String detail = "ELL width " + h.ell().width() + " + COO " + h.coo().nnz() + " entries";
                if (h.coo().nnz() == 0) yield new Built(ell, detail);
                LaunchRunner.Launches coo = coo(h.coo(), p, gpu, v, v.coefAcc(), false, step + "coo-").launches();
                yield new Built(g -> {
                    ell.appendTo(g);
                    coo.appendTo(g);
                }, detail);
            }
        };
    }

    private static LaunchRunner.Launches ell(EllFormat e, Precision p, Vectors v, String step) {
        IntArray rowLen = ints(e.rowLen()), col = ints(e.col());
        KernelArray val = values(p, e.val());
        int rows = e.rows();
        return g -> g.graph().task(g.name(step), EllKernels.ell.at(p), rowLen, col, val, v.x(), v.y(), v.coef(), rows);
    }

    /** COO's launches and their description. */
    private record Coo(LaunchRunner.Launches launches, String detail) {
    }

    /** Chunked COO into y with coefficients {@code coef}; {@code step} starts the task names ({@code coo/} or {@code hyb/coo-}). */
    private static Coo coo(CooFormat c, Precision p, boolean gpu, Vectors v, KernelArray coef, boolean writeEmpty, String step) {
        int chunk = gpu ? 8 : 256;
        int chunks = (c.nnz() + chunk - 1) / chunk;
        KernelArray carry = zeros(p, chunks);
        IntArray carryRow = new IntArray(Math.max(1, chunks));
        IntArray row = ints(c.row()), col = ints(c.col());
        KernelArray val = values(p, c.val());
        int nnz = c.nnz();
        int rows = c.rows();
        int empty = writeEmpty ? 1 : 0;
        LaunchRunner.Launches launches = g -> g.graph()
                .task(g.name(step + "chunks"), CooKernels.cooChunks.at(p), row, col, val, v.x(), v.y(), coef, carry, carryRow, nnz, rows, chunk,
                        chunks, empty)
                .task(g.name(step + "carry-fix"), CooKernels.carryFix.at(p), v.y(), coef, carry, carryRow, chunks);
        return new Coo(launches, chunk + " entries per work-item, " + chunks + " work-items");
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

    private static long roundUp(long v, long m) {
        return Math.max(m, (v + m - 1) / m * m);
    }

    private static String pct(long used, long slots) {
        return slots == 0 ? "100%" : String.format("%.0f%%", 100.0 * used / slots);
    }
}
