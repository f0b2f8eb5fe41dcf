package dev.squall.sparse.spmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** CSB's A X and A^T X, from one copy, on every device, against products computed from A's entries directly. */
class CsbExecutorTest {
    static final Map<String, CsrMatrix> MATRICES = TestMatrices.all();

    /** Y = alpha op(A) X + beta Y0 from A's entries (a scatter for A^T), with the forward error bound per output. */
    static void check(String what, CsrMatrix a, boolean t, int k, Layout l, Precision p, double alpha, double[] x, double beta, double[] y0,
                      double[] got) {
        int out = t ? a.cols() : a.rows();
        int in = t ? a.rows() : a.cols();
        double u = p == Precision.FP32 ? 0x1p-24 : 0x1p-53;
        double[] sum = new double[out * k];
        double[] abs = new double[out * k];
        int[] len = new int[out];
        for (int i = 0; i < a.rows(); i++) {
            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                int o = t ? a.colIndex(q) : i;
                int from = t ? i : a.colIndex(q);
                len[o]++;
                for (int c = 0; c < k; c++) {
                    double v = p == Precision.FP32 ? (float) a.value(q) : a.value(q);
                    double xv = x[l.index(from, c, in, k)];
                    if (p == Precision.FP32) xv = (float) xv;
                    sum[l.index(o, c, out, k)] += v * xv;
                    abs[l.index(o, c, out, k)] += Math.abs(v * xv);
                }
            }
        }
        assertEquals(out * k, got.length, what);
        for (int o = 0; o < out; o++) {
            for (int c = 0; c < k; c++) {
                int at = l.index(o, c, out, k);
                double old = y0 == null ? 0 : (p == Precision.FP32 ? (float) y0[at] : y0[at]);
                double want = alpha * sum[at] + (beta == 0 ? 0 : beta * old);
                double bound = 2 * (len[o] + 4) * u * (Math.abs(alpha) * abs[at] + Math.abs(beta * old)) + Double.MIN_NORMAL;
                if (!(Math.abs(got[at] - want) <= bound)) fail(what + ": Y[" + o + ", " + c + "] = " + got[at] + ", expected " + want);
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> bothDirectionsMatchTheEntries() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (Precision p : Precision.values()) {
                for (Layout l : Layout.values()) {
                    tests.add(DynamicTest.dynamicTest(d.id() + " " + p + " " + l, () -> {
                        Random rnd = new Random(41 + 3 * p.ordinal() + l.ordinal());
                        for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                            CsrMatrix a = e.getValue();
                            int k = 3;
                            // beta 16 cuts every test matrix into several block rows and columns (none is a multiple of 16)
                            for (int beta : new int[] {16, 0}) {
                                String what = d.id() + " " + p + " " + l + " beta " + beta + " " + e.getKey();
                                try (CsbExecutor m = beta == 0 ? CsbExecutor.create(a, k, l, p, d) : CsbExecutor.create(a, beta, k, l, p, d)) {
                                    for (boolean t : new boolean[] {false, true}) {
                                        int in = (t ? a.rows() : a.cols()) * k;
                                        int out = (t ? a.cols() : a.rows()) * k;
                                        double[] x = rnd.doubles(in, -1, 1).toArray();
                                        double[] poison = new double[out];
                                        Arrays.fill(poison, Double.NaN);
                                        // beta 0 over a poisoned Y: Y must not be read
                                        m.multiply(t, 1, x, 0, null);
                                        check(what + (t ? " A^T" : " A") + " (alpha 1.5, beta 0)", a, t, k, l, p, 1.5, x, 0, null,
                                                m.multiply(t, 1.5, x, 0, poison.clone()));
                                        double[] y0 = rnd.doubles(out, -1, 1).toArray();
                                        check(what + (t ? " A^T" : " A") + " (alpha -1, beta 0.5)", a, t, k, l, p, -1, x, 0.5, y0,
                                                m.multiply(t, -1, x, 0.5, y0));
                                    }
                                    assertTrue(m.batchMillis(true, 2) >= 0, what);
                                }
                            }
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }
}
