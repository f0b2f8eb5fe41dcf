package dev.squall.sparse.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.tasks.runtime.Precision;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Matrices and comparisons shared by the solver tests. */
public final class SolverChecks {
    private SolverChecks() {
    }

    /** Diagonally dominant, nonsymmetric pattern (three random off-diagonal entries a row): a row's later neighbours need not depend on it. */
    public static CsrMatrix nonsymmetric(int n, long seed) {
        Random rnd = new Random(seed);
        List<int[]> e = new ArrayList<>();
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            e.add(new int[] {i, i});
            v.add(8.0 + rnd.nextDouble());
            for (int t = 0; t < 3; t++) {
                e.add(new int[] {i, rnd.nextInt(n)});
                v.add(rnd.nextDouble() - 0.5);
            }
        }
        int[] ri = new int[e.size()];
        int[] ci = new int[e.size()];
        double[] vals = new double[e.size()];
        for (int t = 0; t < ri.length; t++) {
            ri[t] = e.get(t)[0];
            ci[t] = e.get(t)[1];
            vals[t] = v.get(t);
        }
        return CsrMatrix.fromCoo(n, n, ri, ci, vals);
    }

    /** Relative 2-norm error within 1e-12 (fp64) or 2e-5 (fp32); NaN fails. */
    public static void assertClose(double[] want, double[] got, Precision p, String what) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < want.length; i++) {
            double e = got[i] - want[i];
            num += Double.isNaN(e) ? Double.POSITIVE_INFINITY : e * e;
            den += want[i] * want[i];
        }
        double rel = Math.sqrt(num / Math.max(den, 1e-300));
        assertTrue(rel <= (p == Precision.FP64 ? 1e-12 : 2e-5), what + ": relative error " + rel);
    }
}
