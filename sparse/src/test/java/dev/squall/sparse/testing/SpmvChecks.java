package dev.squall.sparse.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.tasks.runtime.Precision;

/** A product {@code y = alpha A x + beta y0} checked row by row against the sequential reference, in either precision. */
public final class SpmvChecks {
    private SpmvChecks() {
    }

    /** The fp32 inputs as the device sees them: values rounded to float. */
    public static CsrMatrix roundedToFloat(CsrMatrix a) {
        double[] v = a.values();
        for (int k = 0; k < v.length; k++) v[k] = (float) v[k];
        return CsrMatrix.of(a.rows(), a.cols(), a.rowPtr(), a.colIdx(), v);
    }

    /** {@code v} as precision {@code p} holds it. */
    public static double[] rounded(double[] v, Precision p) {
        double[] r = v.clone();
        if (p == Precision.FP32) for (int i = 0; i < r.length; i++) r[i] = (float) r[i];
        return r;
    }

    /**
     * Checks each row against the reference within the forward error bound of a sum of
     * {@code len} products: {@code 2 (len + 4) u (|alpha| sum |a_ij x_j| + |beta y_i|)}.
     */
    public static void check(String what, CsrMatrix a, Precision p, double alpha, double[] x, double beta, double[] y0, double[] got) {
        CsrMatrix ar = p == Precision.FP32 ? roundedToFloat(a) : a;
        double[] xr = rounded(x, p);
        double[] want = y0 == null ? new double[a.rows()] : rounded(y0, p);
        double[] yOld = want.clone();
        ReferenceSpmv.multiply(p == Precision.FP32 ? (float) alpha : alpha, ar, xr, p == Precision.FP32 ? (float) beta : beta, want);
        double u = p == Precision.FP32 ? 0x1p-24 : 0x1p-53;
        assertEquals(a.rows(), got.length, what);
        for (int i = 0; i < a.rows(); i++) {
            double abs = 0;
            for (int k = ar.rowStart(i); k < ar.rowStart(i + 1); k++) abs += Math.abs(ar.value(k) * xr[ar.colIndex(k)]);
            double bound = 2 * (ar.rowLength(i) + 4) * u * (Math.abs(alpha) * abs + Math.abs(beta * yOld[i])) + Double.MIN_NORMAL;
            if (!(Math.abs(got[i] - want[i]) <= bound)) {
                fail(what + ": y[" + i + "] = " + got[i] + ", expected " + want[i] + " (bound " + bound + ")");
            }
        }
    }
}
