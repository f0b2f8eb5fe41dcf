package dev.squall.permanent.cpu;

import dev.squall.permanent.Method;
import dev.squall.permanent.PermanentResult;
import dev.squall.permanent.PermanentSolver;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.exact.BlockDoubles;
import dev.squall.permanent.exact.ExactReduction;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.Balancing;
import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import dev.squall.tasks.runtime.Devices;

import java.math.BigInteger;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Calibration of {@link RyserRoundingEstimate} against exact permanents (the table in permanent/ACCURACY.md):
 * for each matrix the double sweep is run as runs do it (thread chunks of D steps, each from a fresh start)
 * for the JVM's D, 2^(n-15), 2^(n-12), 2^(n-9) and the D of an n = 40 run on the H100 (2^20: its first launch,
 * capped at every step),
 * and its actual error is compared with the estimate for that D; optionally the generated hybrid kernel on
 * an OpenCL device too. Prints markdown rows. Not a test: run by hand,
 * {@code java -cp ... dev.squall.permanent.cpu.RoundingCalibration [opencl-device]}.
 */
public final class RoundingCalibration {
    private static final int THREADS = Runtime.getRuntime().availableProcessors();

    private RoundingCalibration() {
    }

    public static void main(String[] args) {
        String device = args.length > 0 ? args[0] : null;
        int maxN = args.length > 1 ? Integer.parseInt(args[1]) : 26;
        System.out.println("| matrix | n | ref | cancel | D | actual rel | estimate rel | actual/est |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (double p : new double[]{0.1, 0.3, 0.5}) {
            for (int n = 20; n <= maxN; n += 2) {
                for (long seed = 1; seed <= 2; seed++) {
                    SquareMatrix a = RandomSquareMatrices.erdosRenyi(n, p, seed);
                    whole("ER " + n + ":" + p + ":" + seed, a, device);
                }
            }
        }
        for (String kind : new String[]{"banded", "sparse"}) {
            for (int n = 20; n <= Math.min(maxN, 24); n += 4) {
                for (long seed = 1; seed <= 3; seed++) {
                    whole(kind + ":" + n + ":" + seed, RegressionMatrices.parse(kind + ":" + n + ":" + seed), device);
                }
            }
        }
        for (String spec : new String[]{"40:0.1", "36:0.15", "44:0.08"}) {
            for (long seed = 1; seed <= 8; seed++) blocks(spec + ":" + seed, RandomSquareMatrices.parse(spec + ":" + seed), maxN + 1);
        }
    }

    /** The whole matrix (no decomposition), balanced as the solver does. */
    private static void whole(String name, SquareMatrix a, String device) {
        IntegerScaling sc = IntegerScaling.ofBinary(a);
        Balancing bal = Balancing.of(a);
        SquareMatrix s = ColumnDegreeSort.apply(bal.scaled());
        double ref;
        String refKind;
        if (RationalPermanent.work(sc.rows(), THREADS) < 4e9) {
            Fraction f = RationalPermanent.of(a, false, false, THREADS).value();
            ref = f.toScaled().times(ScaledValue.of(1, -bal.exponent())).toDouble();
            refKind = "exact";
        } else {
            ref = run(s, 1L << 12, true);
            refKind = "dd";
        }
        compare(name, s, ref, refKind);
        if (device != null && a.n() <= 24) {
            PermanentResult r = new PermanentSolver().device(Devices.get(device)).method(Method.CODEGEN_HYBRID).decompose(false)
                    .escalate(false).threads(THREADS).solve(a);
            double truth = ScaledValue.of(ref, bal.exponent()).toDouble();
            double actual = Math.abs(r.value() - truth) / Math.abs(truth), est = r.errorBound().toDouble() / Math.abs(truth);
            row(name + " codegen-hybrid@" + device, a.n(), refKind, Double.NaN,
                    r.generated().get(0).runChunk(), actual, est);
        }
    }

    /** The Gray-code blocks an exact decomposition leaves, balanced (the solver) and only row-scaled (before balancing). */
    private static void blocks(String name, SquareMatrix a, int maxBlock) {
        ExactReduction ex = ExactReduction.of(IntegerScaling.ofBinary(a).rows());
        for (BigInteger[][] b : ex.blocks()) {
            if (b.length < 16 || b.length > maxBlock) continue;
            BlockDoubles bd = BlockDoubles.of(b);
            ScaledValue exact = new Fraction(RationalPermanent.block(b, THREADS).value(), BigInteger.ONE).toScaled()
                    .times(ScaledValue.of(1, -bd.exponent()));
            Balancing bal = Balancing.of(bd.matrix());
            compare("block of " + name, ColumnDegreeSort.apply(bal.scaled()), exact.times(ScaledValue.of(1, -bal.exponent())).toDouble(), "exact", !bd.exact());
            RowScaling rs = RowScaling.of(bd.matrix());
            compare("block of " + name + ", rows scaled only", ColumnDegreeSort.apply(rs.scaled()),
                    exact.times(ScaledValue.of(1, -rs.exponent())).toDouble(), "exact", !bd.exact());
        }
    }

    private static void compare(String name, SquareMatrix s, double ref, String refKind) {
        compare(name, s, ref, refKind, false);
    }

    private static void compare(String name, SquareMatrix s, double ref, String refKind, boolean entriesRounded) {
        int n = s.n();
        long steps = NijenhuisWilf.steps(n);
        long jvm = Math.max(1, Long.highestOneBit(Math.max(1, steps / 4096)));
        for (long d : new long[]{jvm, Math.max(1, steps >>> 14), Math.max(1, steps >>> 11), Math.max(1, steps >>> 8), Math.min(steps, 1L << 20)}) {
            double v = run(s, d, false);
            RyserRoundingEstimate e = RyserRoundingEstimate.of(s, d);
            // both relative to the exact value (a wrong v must not shrink the estimate's ratio); blocks whose entries were
            // rounded to doubles add the solver's entry-rounding term, (n + 1) 2^-52 |perm|
            double actual = Math.abs(v - ref) / Math.abs(ref), est = (e.errorOf(v) + (entriesRounded ? 0x1p-52 * (n + 1) * Math.abs(ref) : 0)) / Math.abs(ref);
            row(name, n, refKind, e.cancellation(v), d, actual, est);
        }
    }

    private static void row(String name, int n, String refKind, double cancel, long d, double actual, double est) {
        System.out.printf(Locale.ROOT, "| %s | %d | %s | %.1e | 2^%d | %.2e | %.2e | %.3f |%n", name, n, refKind, cancel,
                63 - Long.numberOfLeadingZeros(d), actual, est, actual / est);
    }

    /** The sum as a run computes it: chunks of d steps, each a fresh start, in double or double-double. */
    static double run(SquareMatrix s, long d, boolean doubleDouble) {
        int n = s.n();
        long steps = NijenhuisWilf.steps(n);
        int chunks = (int) (steps / d);
        double[] hi = new double[chunks], lo = new double[chunks];
        IntStream.range(0, chunks).parallel().forEach(c -> {
            KahanSum k = new KahanSum();
            (doubleDouble ? new DoubleDoubleGraySweep(s) : new SparseGraySweep(s)).sum(c * d, (c + 1) * d, k);
            hi[c] = k.sum();
            lo[c] = k.compensation();
        });
        KahanSum t = new KahanSum();
        for (int c = 0; c < chunks; c++) t.add(hi[c], lo[c]);
        return NijenhuisWilf.finalFactor(n) * t.value();
    }
}
