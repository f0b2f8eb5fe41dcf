package dev.squall.permanent.exact;

import dev.squall.permanent.frontier.FrontierPermanent;
import dev.squall.permanent.frontier.FrontierPlan;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact permanents of real matrices read as exact rationals ({@link IntegerScaling}): integer
 * rows, exact preprocessing ({@link ExactReduction}), then per block the cheaper exact method —
 * the frontier program over BigInteger ({@link FrontierPermanent#exact}) or multi-modular
 * Gray-code Ryser ({@link ModularRyser}) — and the product with the scaling factor as a fraction.
 *
 * <pre>{@code
 * RationalPermanent.Outcome o = RationalPermanent.of(a, true, true, 4);
 * System.out.println(o.value().toText() + " by " + o.methods());
 * }</pre>
 */
public final class RationalPermanent {
    /** Exact work refused above this many elementary steps (frontier state updates x 40, or Ryser steps x n x primes). */
    public static final double MAX_WORK = 2e12;

    /**
     * @param value   the exact permanent
     * @param blocks  orders of the blocks left after preprocessing
     * @param methods per block, "frontier-exact (width w)" or "modular-ryser (k primes)"
     */
    public record Outcome(Fraction value, List<Integer> blocks, List<String> methods, int eliminated, double seconds) {
    }

    private RationalPermanent() {
    }

    /**
     * @param decimals  read entries as their shortest decimals (else as their exact binary values)
     * @param decompose exact block-triangular split and elimination first
     * @throws IllegalArgumentException when a block is too costly for both exact methods
     */
    public static Outcome of(SquareMatrix a, boolean decimals, boolean decompose, int threads) {
        if (a.n() == 0) throw new IllegalArgumentException("the matrix is empty (0 x 0): nothing to compute");
        long t0 = System.nanoTime();
        IntegerScaling s = decimals ? IntegerScaling.ofDecimals(a) : IntegerScaling.ofBinary(a);
        ExactReduction r = decompose ? ExactReduction.of(s.rows()) : ExactReduction.none(s.rows());
        BigInteger p = r.factor();
        List<String> methods = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (BigInteger[][] b : r.blocks()) {
            if (p.signum() == 0) break;
            Block e = block(b, threads);
            p = p.multiply(e.value);
            methods.add(e.method);
            sizes.add(b.length);
        }
        Fraction v = Fraction.of(p.multiply(s.numerator()), s.denominator());
        return new Outcome(v, sizes, methods, r.eliminated(), (System.nanoTime() - t0) / 1e9);
    }

    /** An exact block permanent and the method that gave it. */
    public record Block(BigInteger value, String method) {
    }

    /** The exact permanent of an integer block by the cheaper of the two exact methods. */
    public static Block block(BigInteger[][] b, int threads) {
        int n = b.length;
        FrontierPlan plan = FrontierPlan.of(ExactReduction.pattern(b));
        double frontierWork = plan.width() <= FrontierPlan.MAX_WIDTH ? plan.cost() * 40 : Double.POSITIVE_INFINITY;
        double ryserWork = n <= NijenhuisWilf.MAX_N ? Math.scalb((double) n * ModularRyser.primesNeeded(b), n - 1) / threads : Double.POSITIVE_INFINITY;
        if (Math.min(frontierWork, ryserWork) > MAX_WORK) {
            throw new IllegalArgumentException("exact permanent of a " + n + "x" + n + " block is out of reach: the frontier program has width "
                    + plan.width() + " (~" + String.format("%.1e", plan.cost()) + " state updates) and multi-modular Ryser needs 2^" + (n - 1)
                    + " steps per prime");
        }
        if (frontierWork <= ryserWork) return new Block(FrontierPermanent.exact(plan, b), "frontier-exact (width " + plan.width() + ", " + plan.order() + ")");
        int k = ModularRyser.primesNeeded(b);
        return new Block(new ModularRyser(threads).permanent(b), "modular-ryser (" + k + " primes)");
    }

    /** The estimated cost of {@link #block} in elementary steps, for callers deciding whether to escalate. */
    public static double work(BigInteger[][] b, int threads) {
        int n = b.length;
        FrontierPlan plan = FrontierPlan.of(ExactReduction.pattern(b));
        double frontierWork = plan.width() <= FrontierPlan.MAX_WIDTH ? plan.cost() * 40 : Double.POSITIVE_INFINITY;
        double ryserWork = n <= NijenhuisWilf.MAX_N ? Math.scalb((double) n * ModularRyser.primesNeeded(b), n - 1) / threads : Double.POSITIVE_INFINITY;
        return Math.min(frontierWork, ryserWork);
    }
}
