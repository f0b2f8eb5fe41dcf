package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * The inner step of {@link BlockedCholesky}'s diagonal blocks in one launch: factor a column block
 * of width {@code kb <= 64} and solve its panel, {@code L21 = A21 L11^-T}.
 *
 * <p>Work-group {@code g} owns the 64-row chunk {@code g} of the block: chunk 0 is the diagonal
 * block, chunk {@code g >= 1} rows {@code kb + 64 (g - 1)} on. Every group factors the diagonal
 * block (the right-looking, unscaled algorithm of {@link CholeskyKernelsF64#potrfSmall}, one
 * barrier per column); groups {@code g >= 1} carry their A21 rows through the same eliminations,
 * which is the forward substitution {@code X L11^T = A21} done column by column alongside the
 * factorisation. Work-item {@code (row, phase)} keeps its 16 entries of both in registers; step
 * {@code j} reads only column {@code j}, which its owners published in local memory at the end of
 * step {@code j - 1}; the steps are unrolled in groups of 4 ({@link #potrfPanel}), which keeps the
 * chain of steps short (launch times of each layout in linalg/PERF.md). The factor is computed redundantly by every group: a few microseconds in parallel, against the
 * launches (triangular inverse, panel GEMM, copy) it replaces.
 *
 * <p>The compiler generates the single-precision twin {@code PanelCholeskyKernelsF32}
 * and the typed handles on both, {@code PanelCholeskyKernels} ({@code @Fp32Variant}): {@code PanelCholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "PanelCholeskyKernelsF32", handles = "PanelCholeskyKernels")
public final class PanelCholeskyKernelsF64 {
    /** Widest column block (rows of each chunk, too). */
    public static final int MAX_KB = 64;
    /** Work-items per group: 64 rows times 4 column phases. */
    public static final int THREADS = 256;
    /** Columns per phase: work-item {@code t} owns columns {@code t / 64 + 4 q}, q = 0..15. */
    static final int PER_PHASE = MAX_KB / 4;

    private PanelCholeskyKernelsF64() {
    }

    /**
     * Factors the column block of {@code a} at {@code off} (leading dimension {@code lda}; the
     * {@code kb x kb} diagonal block on top of {@code rows - kb} panel rows) in place: the diagonal
     * block gets {@code L11} with zeros above the diagonal (as {@link CholeskyKernelsF64#potrfSmall}
     * writes it) and the panel rows {@code L21 = A21 L11^-T}, which also go to {@code panel}
     * ({@code (rows - kb) x kb}, leading dimension {@code rows - kb}) for the trailing update.
     * Only the lower triangle of the diagonal block is read. The first pivot {@code j} that is not
     * positive (or NaN) is reported as {@code atomicMin(info[infoOff], pivotBase + j)} (initialise
     * {@code info} to {@code Integer.MAX_VALUE}); the columns from it on are then written unscaled,
     * so the diagonal holds the failing pivot's value. {@code arrivals[0]} must be 0 before the
     * launch and is 0 after it (the last group to read A11 writes L11 and resets it), so one
     * counter serves every launch of a queue. Grid: {@code 1 + ceil((rows - kb) / 64)} groups of
     * {@link #THREADS}.
     *
     * <pre>{@code
     * IntArray arrivals = new IntArray(1);   // zero, once per sequence
     * graph.task("potrf_panel", WorkerGrid.of(groups * 256L).withLocal(256), PanelCholeskyKernels.potrfPanel.at(precision),
     *         new KernelContext(), a, off, lda, rows, kb, panel, info, 0, k0, arrivals);
     * }</pre>
     */
    @Kernel
    public static void potrfPanel(KernelContext ctx, DoubleArray a, int off, int lda, int rows, int kb,
                                  DoubleArray panel, IntArray info, int infoOff, int pivotBase, IntArray arrivals) {
        // column j of the diagonal block (rows 0..63) and of this group's panel rows, published at the end of step
        // j - 1, double-buffered by the parity of j so step j + 1's column can be written while step j's is read
        double[] colD = ctx.allocateDoubleLocalArray(2 * MAX_KB);
        double[] colP = ctx.allocateDoubleLocalArray(2 * MAX_KB);
        double[] pivots = ctx.allocateDoubleLocalArray(MAX_KB);
        int[] last = ctx.allocateIntLocalArray(1);
        int g = ctx.groupIdx;
        int lid = ctx.localIdx;
        int row = lid % MAX_KB, phase = lid / MAX_KB;
        int rem = rows - kb;
        int i = (g - 1) * MAX_KB + row; // this work-item's panel row (below the diagonal block)
        boolean panelRow = g > 0 && i < rem;
        boolean diagRow = row < kb;
        // this work-item's entries of the diagonal block (row, phase + 4q) and of its panel row, in registers: every
        // step reads only the published column from local memory, so its loads do not wait on earlier stores
        double[] own = new double[PER_PHASE];
        double[] acc = new double[PER_PHASE];
        for (@Unroll int q = 0; q < PER_PHASE; q++) {
            int c = phase + 4 * q;
            own[q] = diagRow && c <= row ? a.get(off + row + c * lda) : 0;
            acc[q] = panelRow && c < kb ? a.get(off + kb + i + c * lda) : 0;
        }
        if (phase == 0) {
            colD[row] = own[0];
            colP[row] = acc[0];
        }
        ctx.localBarrier();
        // Every group reads A11 where L11 goes, so only the last group to have read it may write L11: each counts
        // itself in after its reads; the last one resets the counter for the next launch (launches run in order).
        if (lid == 0) {
            ctx.globalFence();
            int groups = ctx.globalGroupSizeX / ctx.localGroupSizeX;
            boolean isLast = ctx.atomicAdd(arrivals, 0, 1) == groups - 1;
            if (isLast) arrivals.set(0, 0);
            last[0] = isLast ? 1 : 0;
        }
        int failedAt = -1;
        // Steps j = 4 jq + jr. jq is unrolled, so whether this work-item's column phase + 4q is still ahead of j is
        // known at compile time for all q but q == jq, finished columns cost nothing, and the owner of column j + 1
        // (q = jq, or jq + 1 after jr == 3) is a fixed register; predicating all 16 columns every step would about
        // double the instructions of a step.
        // Barrier loop: group-uniform trip counts, fixed-trip inner loops with predicates (PoCL 5.0 aborts on a
        // branch around a variable-trip loop here), barrier unconditional; steps from kb on only pass the barrier.
        for (@Unroll int jq = 0; jq < PER_PHASE; jq++) {
            for (int jr = 0; jr < 4; jr++) {
                int j = 4 * jq + jr;
                int buf = (j & 1) * MAX_KB;
                boolean live = j < kb;
                double d = live ? colD[buf + j] : 1;
                if (live && failedAt < 0 && !(d > 0)) {
                    failedAt = j;
                    if (g == 0 && lid == 0) ctx.atomicMin(info, infoOff, pivotBase + j);
                }
                if (live && lid == 0) pivots[j] = d;
                double nextD = 0, nextP = 0;
                if (live && failedAt < 0) {
                    double rd = 1.0 / d;
                    double lrj = row > j && diagRow ? colD[buf + row] * rd : 0;
                    double arj = panelRow ? colP[buf + row] * rd : 0;
                    for (@Unroll int q = 0; q < PER_PHASE; q++) {
                        int c = phase + 4 * q;
                        // q > jq: c >= 4 jq + 4 > j; q == jq: ahead of j only for phase > jr
                        if (q > jq || (q == jq && c > j)) {
                            double lcj = c < kb ? colD[buf + c] : 0;
                            if (c <= row) own[q] -= lrj * lcj;
                            acc[q] -= arj * lcj;
                        }
                    }
                    // column j + 1 (phase (j + 1) % 4) is final now
                    int qn = Math.min(jr < 3 ? jq : jq + 1, PER_PHASE - 1);
                    nextD = own[qn];
                    nextP = acc[qn];
                }
                // its owners publish it for step j + 1
                if (phase == ((j + 1) & 3)) {
                    colD[MAX_KB - buf + row] = nextD;
                    colP[MAX_KB - buf + row] = nextP;
                }
                ctx.localBarrier();
            }
        }
        boolean writesL11 = last[0] == 1;
        for (@Unroll int q = 0; q < PER_PHASE; q++) {
            int c = phase + 4 * q;
            if (c < kb) {
                boolean scaled = failedAt < 0 || c < failedAt;
                double s = scaled ? Math.sqrt(pivots[c]) : 1;
                if (writesL11 && diagRow) {
                    double v = own[q];
                    if (scaled) v = row < c ? 0 : row == c ? s : v / s;
                    a.set(off + row + c * lda, v);
                }
                if (panelRow) {
                    double v = scaled ? acc[q] / s : acc[q];
                    a.set(off + kb + i + c * lda, v);
                    panel.set(i + c * rem, v);
                }
            }
        }
    }
}
