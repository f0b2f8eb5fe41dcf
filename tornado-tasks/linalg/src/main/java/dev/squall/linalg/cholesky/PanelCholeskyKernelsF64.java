package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * The inner step of {@link BlockedCholesky}'s diagonal blocks in one launch: factor a column block
 * of width {@code kb <= 64} and solve its panel, {@code L21 = A21 L11^-T}.
 *
 * <p>Work-group {@code g} owns the 64-row chunk {@code g} of the block: chunk 0 is the diagonal
 * block, chunk {@code g >= 1} rows {@code kb + 64 (g - 1)} on. Every group factors the diagonal
 * block in local memory (the right-looking, unscaled algorithm of
 * {@link CholeskyKernelsF64#potrfSmall}, one barrier per column); groups {@code g >= 1} carry their
 * A21 rows through the same eliminations, in registers, which is the forward substitution
 * {@code X L11^T = A21} done column by column alongside the factorisation. The factor is computed
 * redundantly by every group: a few microseconds in parallel, against the launches (triangular
 * inverse, panel GEMM, copy) it replaces.
 *
 * <p>The compiler generates the single-precision twin {@code PanelCholeskyKernelsF32} ({@code @Fp32Variant}).
 */
@dev.squall.tasks.api.Fp32Variant("PanelCholeskyKernelsF32")
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
     * seq.launch("potrf_panel", PanelCholeskyKernelsF64.class, "potrfPanel",
     *         WorkerGrid.of(groups * 256L).withLocal(256), a, off, lda, rows, kb, panel, info, 0, k0, arrivals);
     * }</pre>
     */
    @Kernel
    public static void potrfPanel(KernelContext ctx, DoubleArray a, int off, int lda, int rows, int kb,
                                  DoubleArray panel, IntArray info, int infoOff, int pivotBase, IntArray arrivals) {
        double[] l = ctx.allocateDoubleLocalArray(MAX_KB * MAX_KB);
        // column j of this group's panel rows at step j, double-buffered by the parity of j so the next
        // column can be published while the current one is still being read
        double[] col = ctx.allocateDoubleLocalArray(2 * MAX_KB);
        int[] last = ctx.allocateIntLocalArray(1);
        int g = ctx.groupIdx;
        int lid = ctx.localIdx;
        int row = lid % MAX_KB, phase = lid / MAX_KB;
        int rem = rows - kb;
        int i = (g - 1) * MAX_KB + row; // this work-item's panel row (below the diagonal block)
        boolean panelRow = g > 0 && i < rem;
        for (int idx = lid; idx < kb * kb; idx += THREADS) {
            int r = idx % kb, c = idx / kb;
            l[idx] = r >= c ? a.get(off + r + c * lda) : 0;
        }
        double[] acc = new double[PER_PHASE];
        for (@Unroll int q = 0; q < PER_PHASE; q++) {
            int c = phase + 4 * q;
            acc[q] = panelRow && c < kb ? a.get(off + kb + i + c * lda) : 0;
        }
        if (panelRow && phase == 0) col[row] = acc[0];
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
        ctx.localBarrier();
        boolean writesL11 = last[0] == 1;
        int failedAt = -1;
        // barrier loop: group-uniform trip count, fixed-trip inner loops with predicates (PoCL 5.0 aborts on a
        // branch around a variable-trip loop here), barrier unconditional
        for (int j = 0; j < kb; j++) {
            double d = l[j + j * kb];
            if (failedAt < 0 && !(d > 0)) {
                failedAt = j;
                if (g == 0 && lid == 0) ctx.atomicMin(info, infoOff, pivotBase + j);
            }
            if (failedAt < 0 && row > j && row < kb) {
                double lrj = l[row + j * kb] / d;
                for (@Unroll int q = 0; q < PER_PHASE; q++) {
                    int c = phase + 4 * q;
                    if (c > j && c <= row) l[row + c * kb] -= lrj * l[c + j * kb];
                }
            }
            if (failedAt < 0 && panelRow) {
                double arj = col[(j & 1) * MAX_KB + row] / d;
                double next = 0;
                for (@Unroll int q = 0; q < PER_PHASE; q++) {
                    int c = phase + 4 * q;
                    if (c > j && c < kb) acc[q] -= arj * l[c + j * kb];
                    if (c == j + 1) next = acc[q];
                }
                // column j + 1 is final now: its owner publishes it for step j + 1
                if (phase == ((j + 1) & 3)) col[((j + 1) & 1) * MAX_KB + row] = next;
            }
            ctx.localBarrier();
        }
        if (writesL11) {
            for (int idx = lid; idx < kb * kb; idx += THREADS) {
                int r = idx % kb, c = idx / kb;
                double v = l[idx];
                if (failedAt < 0 || c < failedAt) {
                    double s = Math.sqrt(l[c + c * kb]);
                    v = r < c ? 0 : r == c ? s : v / s;
                }
                a.set(off + r + c * lda, v);
            }
        }
        if (panelRow) {
            for (@Unroll int q = 0; q < PER_PHASE; q++) {
                int c = phase + 4 * q;
                if (c < kb) {
                    double v = acc[q];
                    if (failedAt < 0 || c < failedAt) v = v / Math.sqrt(l[c + c * kb]);
                    a.set(off + kb + i + c * lda, v);
                    panel.set(i + c * rem, v);
                }
            }
        }
    }
}
