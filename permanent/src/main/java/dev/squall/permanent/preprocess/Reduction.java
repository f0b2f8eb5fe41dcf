package dev.squall.permanent.preprocess;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.ScaledValue;

import java.util.ArrayList;
import java.util.List;

/**
 * What preprocessing leaves for the Gray-code phase: {@code perm(A) = factor * prod perm(blocks)}.
 * Degree elimination ({@link DegreeElimination}) and the block-triangular split
 * ({@link BlockTriangularForm}) alternate until neither changes anything, since splitting exposes
 * new low-degree rows and elimination can split blocks further.
 *
 * <pre>{@code
 * Reduction r = Reduction.of(a);
 * System.out.println(r.describe());   // "3 blocks (sizes 20, 7, 1), 5 rows/columns eliminated"
 * }</pre>
 *
 * @param factor           product of the eliminated entries and 1x1 blocks
 * @param blocks           irreducible blocks left for the sweep (order >= 2)
 * @param btfBlockSizes    sizes of every diagonal block the decomposition found (before elimination inside them)
 * @param eliminated       rows/columns removed by expansion
 * @param singular         structurally singular (then factor is 0)
 */
public record Reduction(ScaledValue factor, List<SquareMatrix> blocks, List<Integer> btfBlockSizes, int eliminated, boolean singular) {

    /** No preprocessing: the matrix itself is the only block. */
    public static Reduction none(SquareMatrix a) {
        return new Reduction(ScaledValue.ONE, List.of(a), List.of(a.n()), 0, false);
    }

    public static Reduction of(SquareMatrix a) {
        List<SquareMatrix> out = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        int[] eliminated = {0};
        ScaledValue f = reduce(a, out, sizes, eliminated, true);
        if (f.isZero()) return new Reduction(ScaledValue.ZERO, List.of(), sizes, eliminated[0], true);
        return new Reduction(f, List.copyOf(out), List.copyOf(sizes), eliminated[0], false);
    }

    private static ScaledValue reduce(SquareMatrix a, List<SquareMatrix> out, List<Integer> sizes, int[] eliminated, boolean top) {
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(a);
        if (blocks == null) return ScaledValue.ZERO;
        if (top) for (BlockTriangularForm.Block b : blocks) sizes.add(b.size());
        ScaledValue f = ScaledValue.ONE;
        for (BlockTriangularForm.Block b : blocks) {
            SquareMatrix m = b.of(a);
            DegreeElimination.Result e = DegreeElimination.apply(m);
            eliminated[0] += e.eliminated();
            f = f.times(ScaledValue.of(e.factor()));
            if (f.isZero()) return ScaledValue.ZERO;
            SquareMatrix rest = e.matrix();
            if (rest.n() == 0) continue;
            if (e.eliminated() > 0) {
                f = f.times(reduce(rest, out, sizes, eliminated, false)); // elimination may have split it
            } else {
                out.add(rest);
            }
            if (f.isZero()) return ScaledValue.ZERO;
        }
        return f;
    }

    public String describe() {
        if (singular) return "structurally singular (no perfect matching): permanent 0";
        List<Integer> left = blocks.stream().map(SquareMatrix::n).toList();
        return btfBlockSizes.size() + " block-triangular block(s) " + btfBlockSizes + ", " + eliminated
                + " row(s)/column(s) eliminated by expansion, Gray-code blocks left " + left;
    }
}
