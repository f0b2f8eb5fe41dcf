package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Right-looking blocked Cholesky made of loop-style kernels ({@link LoopCholeskyKernelsF64}), the
 * form the JVM backend runs fastest: per block step one launch factors the diagonal block, one
 * solves the panel (rows in parallel) and one updates the trailing lower triangle (column tiles in
 * parallel). {@link CholeskyRun} uses it on the {@code jvm} device; on GPUs it would leave most of
 * the device idle, so there {@link BlockedCholesky} runs instead.
 *
 * <pre>{@code
 * LaunchSequence seq = new LaunchSequence("cholesky");
 * LoopCholesky.append(seq, a, work, n, info);    // work = L, zeros above the diagonal
 * }</pre>
 */
public final class LoopCholesky {
    /** Block width: the panel (n x 96 doubles) stays in L2 while the trailing update streams it. */
    public static final int BLOCK = 96;

    /** Appends with block width {@link #BLOCK}. */
    public static void append(LaunchSequence seq, KernelArray a, KernelArray work, int n, IntArray info) {
        append(seq, a, work, n, info, BLOCK);
    }

    private LoopCholesky() {
    }

    /**
     * Appends the launches that copy the lower triangle of {@code a} ({@code n x n}, packed) into
     * {@code work} and factor it there; the first failing pivot goes to {@code info[0]}.
     */
    public static void append(LaunchSequence seq, KernelArray a, KernelArray work, int n, IntArray info, int block) {
        if (block < 1) throw new IllegalArgumentException("block width must be >= 1, got " + block);
        Precision p = Precision.of(work);
        int nb = Math.min(block, n);
        KernelArray panel = p.allocate((long) (n + LoopCholeskyKernelsF64.TILE) * nb);
        TaskGraph g = seq.graph();
        g.task(seq.taskName("copy_lower"), LoopCholeskyKernels.copyLower.at(p), a, work, n);
        for (int k0 = 0; k0 < n; k0 += nb) {
            int kb = Math.min(nb, n - k0), rem = n - k0 - kb;
            g.task(seq.taskName("factor_diagonal"), LoopCholeskyKernels.factorDiagonal.at(p), work, n, k0, kb, panel, info);
            if (rem == 0) break;
            int tiles = (rem + LoopCholeskyKernelsF64.TILE - 1) / LoopCholeskyKernelsF64.TILE;
            g.task(seq.taskName("solve_panel"), LoopCholeskyKernels.solvePanel.at(p), work, n, k0, kb, panel, info, tiles);
            int columnTiles = (rem + LoopCholeskyKernelsF64.TILE_COLS - 1) / LoopCholeskyKernelsF64.TILE_COLS;
            g.task(seq.taskName("update_trailing"), LoopCholeskyKernels.updateTrailing.at(p), work, n, k0, kb, panel, info, columnTiles);
        }
    }
}
