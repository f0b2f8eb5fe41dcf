package dev.squall.permanent.exact;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.BlockTriangularForm;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Exact 0/1 permanents through the block-triangular split: the diagonal blocks of a 0/1 matrix
 * are 0/1 matrices and {@code perm(A) = prod perm(block)}, so each block goes to an exact path
 * and the exact values multiply in BigInteger (the product may exceed 64 bits and stays exact).
 * A block known only modulo 2^k makes the product known modulo 2^k (residues multiply). Degree
 * elimination is not used: it would leave entries other than 0 and 1.
 *
 * <pre>{@code
 * BlockExactPermanent.Outcome o = BlockExactPermanent.of(a, new BinaryKernelPermanent(dev)::compute);
 * System.out.println(o.result().value() + " from blocks " + o.blockSizes());
 * }</pre>
 */
public final class BlockExactPermanent {
    /** @param blockSizes orders of the diagonal blocks (empty when structurally singular) */
    public record Outcome(BinaryPermanent.Result result, List<Integer> blockSizes) {
    }

    private BlockExactPermanent() {
    }

    /** @param perBlock an exact path for blocks of order >= 2 (1x1 blocks are their own entry) */
    public static Outcome of(SquareMatrix a, Function<SquareMatrix, BinaryPermanent.Result> perBlock) {
        if (!a.isBinary()) throw new IllegalArgumentException("the exact integer path needs a 0/1 matrix; this one has other values");
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(a);
        if (blocks == null) return new Outcome(new BinaryPermanent.Result(BigInteger.ZERO, true, BinaryKernelPermanent.MODULUS_BITS), List.of());
        List<Integer> sizes = new ArrayList<>();
        BigInteger product = BigInteger.ONE;
        int modulusBits = Integer.MAX_VALUE; // smallest modulus among blocks known only as residues
        for (BlockTriangularForm.Block b : blocks) {
            sizes.add(b.size());
            if (b.size() == 1) continue; // a diagonal block of order 1 is a nonzero entry: 1
            BinaryPermanent.Result r = perBlock.apply(b.of(a));
            product = product.multiply(r.value());
            if (!r.exact()) modulusBits = Math.min(modulusBits, r.modulusBits());
        }
        if (modulusBits == Integer.MAX_VALUE) return new Outcome(new BinaryPermanent.Result(product, true, BinaryKernelPermanent.MODULUS_BITS), sizes);
        return new Outcome(new BinaryPermanent.Result(product.mod(BigInteger.ONE.shiftLeft(modulusBits)), false, modulusBits), sizes);
    }
}
