package dev.squall.linalg.cholesky;

import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.linalg.triangular.TriangularInverse;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;

import java.util.Set;

/**
 * Right-looking blocked Cholesky of one large SPD matrix, as Stan Math does it on OpenCL: for
 * each diagonal block, factor it ({@link BatchedCholesky}'s local-memory kernel, recursively for
 * blocks larger than 64), invert its factor with the batched triangular inverse, solve the panel
 * by a GEMM with that inverse ({@code L21 = A21 L11^-T}) and update the trailing matrix with a
 * lower-triangle GEMM ({@code A22 -= L21 L21^T}). Steps of {@link #INNER_BLOCK} columns (inside
 * the outer diagonal blocks, and throughout for {@code n <= 2 * outer}) take two launches: one of
 * {@link PanelCholeskyKernelsF64#potrfPanel}, which factors the 64-column block and solves its
 * panel into the matrix and the workspace, and the trailing GEMM. Everything stays on the device;
 * the launches are appended to a {@link LaunchSequence} once and can be executed repeatedly.
 *
 * <pre>{@code
 * try (CholeskyRun run = new CholeskyRun(device, a, n)) {
 *     run.execute();               // throws NotPositiveDefiniteException with the failing pivot
 *     CholeskyFactor f = run.factor();
 * }
 * }</pre>
 */
public final class BlockedCholesky {
    /** Outer block size for large matrices; diagonal blocks are factored with {@link #INNER_BLOCK}. */
    public static final int OUTER_BLOCK = 256, INNER_BLOCK = 64;

    /**
     * The default outer block for order n: 2048 from n = 8192, 1024 from 4096, else {@link #OUTER_BLOCK}. Wide
     * blocks make few, deep trailing GEMMs (less of C read and written per flop) and the 64-column steps inside a
     * diagonal block cost the same whatever its width (the times of each block size are in linalg/PERF.md).
     */
    public static int outerBlock(int n) {
        return n >= 8192 ? 2048 : n >= 4096 ? 1024 : OUTER_BLOCK;
    }

    /**
     * Columns above the diagonal that a factorisation may write: the lower-triangle GEMMs compute whole tiles of up to
     * 128 x 128 where they straddle the diagonal (every one starts on the diagonal), the diagonal-block kernels stay
     * inside blocks of {@link #INNER_BLOCK}. Entries further above keep what they held before.
     */
    static final int WRITTEN_ABOVE = 128;

    private BlockedCholesky() {
    }

    /** Scratch arrays shared by all steps (they run in order on one device queue). */
    static final class Workspace {
        final KernelArray inverse, temp, panel;
        /** The fused inner step's group counter ({@link PanelCholeskyKernelsF64#potrfPanel}): zero between launches. */
        final IntArray arrivals = new IntArray(1);

        Workspace(Precision p, int n, int outer) {
            int b = Math.min(n, outer);
            inverse = p.allocate((long) b * b);
            temp = p.allocate(TriangularInverse.tempLength(b, 1));
            panel = p.allocate(Math.max(1, (long) n * b));
        }
    }

    /** Appends the factorisation of the packed {@code n x n} matrix {@code a} in place; failing pivot to {@code info[0]}. */
    static void append(LaunchSequence seq, KernelArray a, int n, IntArray info) {
        append(seq, a, n, info, outerBlock(n), CholeskyPhase.all());
    }

    /** As {@link #append(LaunchSequence, KernelArray, int, IntArray, int, Set, GemmKernel)} with the GEMM kernels picked for the device. */
    static void append(LaunchSequence seq, KernelArray a, int n, IntArray info, int outer, Set<CholeskyPhase> phases) {
        append(seq, a, n, info, outer, phases, null);
    }

    /**
     * Appends the launches of the given phases only ({@link CholeskyPhase#all()} for the
     * factorisation), with outer block {@code outer} (a multiple of {@link #INNER_BLOCK}). The outer steps' panel
     * solves and trailing updates run {@code outerGemm} (null: the kernel {@link BatchedGemm#choose} picks for each
     * product on the sequence's target); the 64-column steps always take the picked one.
     */
    static void append(LaunchSequence seq, KernelArray a, int n, IntArray info, int outer, Set<CholeskyPhase> phases, GemmKernel outerGemm) {
        append(seq, a, n, info, outer, phases, outerGemm, false);
    }

    /**
     * As the one above; {@code upperZero} says that {@code a} holds zeros above the diagonal on entry, so that the
     * final {@link CholeskyPhase#COPY} only clears the {@link #WRITTEN_ABOVE} columns above it instead of rewriting
     * the whole matrix.
     */
    static void append(LaunchSequence seq, KernelArray a, int n, IntArray info, int outer, Set<CholeskyPhase> phases, GemmKernel outerGemm,
                       boolean upperZero) {
        if (outer < INNER_BLOCK || outer % INNER_BLOCK != 0) {
            throw new IllegalArgumentException("outer block must be a positive multiple of " + INNER_BLOCK + ", got " + outer);
        }
        Workspace ws = new Workspace(Precision.of(a), n, outer);
        factorBlock(seq, a, 0, n, n, 0, info, ws, outer, phases, outerGemm);
        if (phases.contains(CholeskyPhase.COPY)) {
            if (upperZero) CopyLaunches.clearUpperBand(seq, a, 0, n, n, WRITTEN_ABOVE);
            else CopyLaunches.lower(seq, a, 0, n, 0, a, 0, n, 0, n, 1);
        }
    }

    /**
     * The launches of the look-ahead schedule ({@link LookaheadCholesky}), one sequence per phase of each outer
     * step: {@code diagonal[k]} factors diagonal block k, inverts it and solves its panel (into panel buffer
     * {@code k % 2}); {@code nextColumn[k]} applies step k's update to block column k + 1 only (its diagonal block
     * and the panel below it); {@code rest[k]} applies it to the rest of the trailing matrix and copies the panel
     * into the matrix. {@code nextColumn} and {@code rest} have one entry fewer than {@code diagonal}. For
     * {@code n <= 2 * outer} there is one step, the whole factorisation as {@link #append} makes it. {@code solve[k]},
     * where not null, solves panel k (then not part of {@code diagonal[k]}): it runs on the update queue, after
     * {@code diagonal[k]} and before {@code nextColumn[k]}.
     */
    record LookaheadSteps(LaunchSequence[] diagonal, LaunchSequence[] solve, LaunchSequence[] nextColumn, LaunchSequence[] rest) {
        int steps() {
            return diagonal.length;
        }
    }

    /**
     * Builds the look-ahead launches for the packed {@code n x n} matrix {@code a} (factored in place; failing pivot
     * to {@code info[0]}, the smallest if several fail) with outer block {@code outer}. The diagonal steps own a
     * workspace (scratch of the inner steps, the inverse) and the updates read one of two panel buffers, so step
     * k + 1's diagonal phase may run while step k's rest runs; the caller orders the phases as
     * {@link LookaheadCholesky} says. Launches pick kernel variants for {@code target} (null: the portable ones); the
     * panel solves and the updates of the outer steps run {@code outerGemm} where it is not null. With
     * {@code restGroups > 0} each {@code rest} product is a persistent launch of at most that many groups (for the
     * kernels that loop over tiles: {@link BatchedGemm#appendPersistent}), so that the diagonal queue's launches find
     * compute units free, and the panel solves, large products, move out of the diagonal phase into {@code solve}. With
     * {@code splitNext}, {@code nextColumn[k]} updates only the diagonal block of column k + 1 (all that
     * {@code diagonal[k + 1]} reads) and the panel below it moves to the start of {@code rest[k]} (the solves are then
     * in {@code solve} too).
     */
    static LookaheadSteps lookahead(String name, Device target, KernelArray a, int n, IntArray info, int outer, GemmKernel outerGemm, int restGroups,
                                    boolean splitNext) {
        if (outer < INNER_BLOCK || outer % INNER_BLOCK != 0) {
            throw new IllegalArgumentException("outer block must be a positive multiple of " + INNER_BLOCK + ", got " + outer);
        }
        Precision p = Precision.of(a);
        if (n <= 2 * outer) {
            LaunchSequence whole = new LaunchSequence(name + "_diag0", target);
            factorBlock(whole, a, 0, n, n, 0, info, new Workspace(p, n, outer), outer, CholeskyPhase.all(), outerGemm);
            return new LookaheadSteps(new LaunchSequence[] {whole}, new LaunchSequence[1], new LaunchSequence[0], new LaunchSequence[0]);
        }
        int steps = (n + outer - 1) / outer;
        Workspace diagonalWs = new Workspace(p, outer, outer);
        KernelArray[] panels = {p.allocate((long) n * outer), p.allocate((long) n * outer)};
        LaunchSequence[] diagonal = new LaunchSequence[steps], solve = new LaunchSequence[steps];
        LaunchSequence[] nextColumn = new LaunchSequence[steps - 1], rest = new LaunchSequence[steps - 1];
        for (int k = 0; k < steps; k++) {
            int k0 = k * outer, kb = Math.min(outer, n - k0), rem = n - k0 - kb;
            int d = k0 + k0 * n;
            KernelArray panel = panels[k % 2];
            LaunchSequence diag = diagonal[k] = new LaunchSequence(name + "_diag" + k, target);
            factorBlock(diag, a, d, n, kb, k0, info, diagonalWs, outer, null, outerGemm);
            if (rem == 0) break;
            TriangularInverse.append(diag, a, d, n, 0, diagonalWs.inverse, diagonalWs.temp, kb, 1, TriangularInverse.DEFAULT_BLOCK);
            LaunchSequence solver = diag;
            // the solve on the update queue: it must follow the split update of its panel, and on the units a persistent
            // update leaves it would take several times longer
            if (restGroups > 0 || splitNext) solver = solve[k] = new LaunchSequence(name + "_solve" + k, target);
            gemm(solver, Transpose.N, Transpose.T, 1, a, diagonalWs.inverse, 0, panel,
                    BatchDescriptor.variable(new int[] {rem}, new int[] {kb}, new int[] {kb}, new int[] {d + kb}, new int[] {n},
                            new int[] {0}, new int[] {kb}, new int[] {0}, new int[] {rem}), false, true, outerGemm);
            // step k's update of block column k + 1 (width next): the rem x next strip, its diagonal block's lower triangle
            int next = Math.min(outer, rem), dNext = d + kb + kb * n;
            LaunchSequence column = nextColumn[k] = new LaunchSequence(name + "_next" + k, target);
            LaunchSequence r = rest[k] = new LaunchSequence(name + "_rest" + k, target);
            int m = rem - next;
            if (splitNext && m > 0) {
                // the diagonal block of column k + 1 first (all the next factor waits for), the panel below it with the rest
                gemm(column, Transpose.N, Transpose.T, -1, panel, panel, 1, a,
                        BatchDescriptor.variable(new int[] {next}, new int[] {next}, new int[] {kb}, new int[] {0}, new int[] {rem},
                                new int[] {0}, new int[] {rem}, new int[] {dNext}, new int[] {n}), true, false, outerGemm);
                BatchDescriptor below = BatchDescriptor.variable(new int[] {m}, new int[] {next}, new int[] {kb}, new int[] {next}, new int[] {rem},
                        new int[] {0}, new int[] {rem}, new int[] {dNext + next}, new int[] {n});
                BatchedGemm.appendPersistent(r, Transpose.N, Transpose.T, -1, panel, panel, 1, a, below, false, false,
                        outerGemm != null ? outerGemm : BatchedGemm.choose(target, p, below), restGroups);
            } else {
                gemm(column, Transpose.N, Transpose.T, -1, panel, panel, 1, a,
                        BatchDescriptor.variable(new int[] {rem}, new int[] {next}, new int[] {kb}, new int[] {0}, new int[] {rem},
                                new int[] {0}, new int[] {rem}, new int[] {dNext}, new int[] {n}), true, false, outerGemm);
            }
            if (m > 0) {
                BatchDescriptor update = BatchDescriptor.variable(new int[] {m}, new int[] {m}, new int[] {kb}, new int[] {next}, new int[] {rem},
                        new int[] {next}, new int[] {rem}, new int[] {dNext + next + next * n}, new int[] {n});
                BatchedGemm.appendPersistent(r, Transpose.N, Transpose.T, -1, panel, panel, 1, a, update, true, false,
                        outerGemm != null ? outerGemm : BatchedGemm.choose(target, p, update), restGroups);
            }
            CopyLaunches.rect(r, panel, 0, rem, a, d + kb, n, rem, kb);
        }
        return new LookaheadSteps(diagonal, solve, nextColumn, rest);
    }

    /**
     * Right-looking steps over blocks of {@code outer} (blocks larger than twice that) or
     * {@link #INNER_BLOCK}; the diagonal blocks recurse. Inside a diagonal block every launch
     * belongs to {@link CholeskyPhase#DIAGONAL_FACTOR}, so the recursion passes {@code null}
     * ("everything") once that phase is selected. An inner step's fused launch (factor, panel
     * solve and copy) counts as {@link CholeskyPhase#DIAGONAL_FACTOR} at the top level too.
     */
    private static void factorBlock(LaunchSequence seq, KernelArray a, int off, int lda, int n, int pivotBase, IntArray info, Workspace ws,
                                    int outer, Set<CholeskyPhase> phases, GemmKernel outerGemm) {
        if (n <= INNER_BLOCK) {
            if (phases == null || phases.contains(CholeskyPhase.DIAGONAL_FACTOR)) BatchedCholesky.append(seq, a, off, lda, 0, n, 1, info, 0, pivotBase, SmallCholeskyKernel.GROUP);
            return;
        }
        int b = n > 2 * outer ? outer : INNER_BLOCK;
        for (int k0 = 0; k0 < n; k0 += b) {
            int kb = Math.min(b, n - k0), rem = n - k0 - kb;
            int d = off + k0 + k0 * lda;
            if (b == INNER_BLOCK) {
                // inner step: factor, panel solve and panel copy in one launch (counted as the diagonal factor),
                // then the trailing update from the panel it wrote
                if (phases == null || phases.contains(CholeskyPhase.DIAGONAL_FACTOR)) appendPanel(seq, a, d, lda, kb, rem, ws, info, pivotBase + k0);
                if (rem > 0 && (phases == null || phases.contains(CholeskyPhase.TRAILING_UPDATE))) appendTrailing(seq, a, d, lda, kb, rem, ws, null);
                continue;
            }
            if (phases == null || phases.contains(CholeskyPhase.DIAGONAL_FACTOR)) {
                factorBlock(seq, a, d, lda, kb, pivotBase + k0, info, ws, outer, null, outerGemm);
            }
            if (rem == 0) break;
            if (phases == null || phases.contains(CholeskyPhase.DIAGONAL_INVERSE)) {
                TriangularInverse.append(seq, a, d, lda, 0, ws.inverse, ws.temp, kb, 1, TriangularInverse.DEFAULT_BLOCK);
            }
            if (phases == null || phases.contains(CholeskyPhase.PANEL_SOLVE)) {
                // panel solve: L21 = A21 * L11^-T into the panel buffer (A21 cannot be read and written by one GEMM);
                // L11^-T is upper triangular, which the tensor-core GEMM uses to halve the work
                gemm(seq, Transpose.N, Transpose.T, 1, a, ws.inverse, 0, ws.panel,
                        BatchDescriptor.variable(new int[] {rem}, new int[] {kb}, new int[] {kb}, new int[] {d + kb}, new int[] {lda},
                                new int[] {0}, new int[] {kb}, new int[] {0}, new int[] {rem}), false, true, outerGemm);
            }
            if (phases == null || phases.contains(CholeskyPhase.TRAILING_UPDATE)) appendTrailing(seq, a, d, lda, kb, rem, ws, outerGemm);
            if (phases == null || phases.contains(CholeskyPhase.COPY)) CopyLaunches.rect(seq, ws.panel, 0, rem, a, d + kb, lda, rem, kb);
        }
    }

    /**
     * One launch of {@link PanelCholeskyKernelsF64#potrfPanel}: the {@code kb}-column block at
     * {@code d} (diagonal block on top of {@code rem} panel rows) factored and its panel solved,
     * in {@code a} and into {@code ws.panel}; one group for the diagonal block, one per 64 panel rows.
     */
    private static void appendPanel(LaunchSequence seq, KernelArray a, int d, int lda, int kb, int rem, Workspace ws, IntArray info, int pivotBase) {
        int chunk = PanelCholeskyKernelsF64.MAX_KB;
        long groups = 1 + (rem + chunk - 1) / chunk;
        seq.graph().task(seq.taskName("potrf_panel"), WorkerGrid.of(groups * PanelCholeskyKernelsF64.THREADS).withLocal(PanelCholeskyKernelsF64.THREADS),
                PanelCholeskyKernels.potrfPanel.at(Precision.of(a)), new KernelContext(), a, d, lda, kb + rem, kb, ws.panel, info, 0, pivotBase, ws.arrivals);
    }

    /**
     * The trailing update of the lower triangle from the solved panel in {@code ws.panel}: {@code A22 -= L21 L21^T}, by
     * {@code kernel} (null: the one picked for the shape).
     */
    private static void appendTrailing(LaunchSequence seq, KernelArray a, int d, int lda, int kb, int rem, Workspace ws, GemmKernel kernel) {
        gemm(seq, Transpose.N, Transpose.T, -1, ws.panel, ws.panel, 1, a,
                BatchDescriptor.variable(new int[] {rem}, new int[] {rem}, new int[] {kb}, new int[] {0}, new int[] {rem},
                        new int[] {0}, new int[] {rem}, new int[] {d + kb + kb * lda}, new int[] {lda}), true, false, kernel);
    }

    /** {@link BatchedGemm#append} with {@code kernel}, or where it is null the kernel picked for the shape on the sequence's target. */
    private static void gemm(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b, double beta, KernelArray c,
                             BatchDescriptor d, boolean lowerOnly, boolean upperB, GemmKernel kernel) {
        BatchedGemm.append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB,
                kernel != null ? kernel : BatchedGemm.choose(seq.target(), Precision.of(c), d));
    }

    /** Floating-point operations of a Cholesky factorisation of order n, n^3/3 (for rates). */
    public static double flops(int n) {
        return (double) n * n * n / 3.0;
    }
}
