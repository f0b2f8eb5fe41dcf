package dev.squall.sparse.spmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** SpMM in both layouts and precisions on every device against a plain triple loop over the CSR entries. */
class SpmmExecutorTest {
    static final Map<String, CsrMatrix> MATRICES = TestMatrices.all();

    static double round(double v, Precision p) {
        return p == Precision.FP32 ? (float) v : v;
    }

    /**
     * Y[i, c] against sum_k a_ik X[k, c] computed in double from the precision's rounded inputs,
     * within {@code 2 (len + 4) u (|alpha| sum |a x| + |beta y|)}.
     */
    static void check(String what, CsrMatrix a, int k, Layout l, Precision p, double alpha, double[] x, double beta, double[] y0, double[] got) {
        double u = p == Precision.FP32 ? 0x1p-24 : 0x1p-53;
        assertEquals(a.rows() * k, got.length, what);
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < a.rows(); i++) {
                double s = 0;
                double abs = 0;
                for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                    double t = round(a.value(q), p) * round(x[l.index(a.colIndex(q), c, a.cols(), k)], p);
                    s += t;
                    abs += Math.abs(t);
                }
                int at = l.index(i, c, a.rows(), k);
                double old = y0 == null ? 0 : round(y0[at], p);
                double want = round(alpha, p) * s + (beta == 0 ? 0 : round(beta, p) * old);
                double bound = 2 * (a.rowLength(i) + 4) * u * (Math.abs(alpha) * abs + Math.abs(beta * old)) + Double.MIN_NORMAL;
                if (!(Math.abs(got[at] - want) <= bound)) {
                    fail(what + ": Y[" + i + ", " + c + "] = " + got[at] + ", expected " + want + " (bound " + bound + ")");
                }
            }
        }
    }

    /** alpha 1 and beta 0 over a poisoned Y (Y must not be read), then alpha -0.75 and beta 2. */
    private static void twoProducts(String what, CsrMatrix a, int k, Layout l, Precision p, SpmmExecutor m, Random rnd, double[] x) {
        m.setY(DeviceCases.poison(a.rows() * k));
        check(what + " (alpha 1, beta 0)", a, k, l, p, 1, x, 0, null, m.multiply(1, x, 0, null));
        double[] y0 = rnd.doubles((long) a.rows() * k, -1, 1).toArray();
        check(what + " (alpha -0.75, beta 2)", a, k, l, p, -0.75, x, 2, y0, m.multiply(-0.75, x, 2, y0));
    }

    @TestFactory
    Stream<DynamicTest> everyLayoutMatchesTheReference() {
        return DeviceCases.each(Layout.values(), d -> "", (d, p, l) -> {
            Random rnd = new Random(17 * p.ordinal() + l.ordinal());
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                int k = e.getKey().equals("long rows") ? 2 : 5;
                String what = d.id() + " " + p + " " + l + " K=" + k + " " + e.getKey();
                double[] x = rnd.doubles((long) a.cols() * k, -1, 1).toArray();
                try (SpmmExecutor m = SpmmExecutor.create(a, k, l, p, d)) {
                    twoProducts(what, a, k, l, p, m, rnd, x);
                    m.setCoefficients(1.5, 0);
                    double ms = m.batchMillis(2);
                    assertTrue(ms >= 0, what);
                    check(what + " (batch, alpha 1.5)", a, k, l, p, 1.5, x, 0, null, m.y());
                }
            }
        });
    }

    /**
     * The launches of the other kind of device (the binned SpMM with 8 accumulators on the JVM and
     * PoCL, a work-item per output on GPUs), K = 11 so a second, partial chunk of vectors runs.
     */
    @TestFactory
    Stream<DynamicTest> otherDeviceKindsLaunchesMatchTheReference() {
        return DeviceCases.each(Layout.values(), d -> d.info().isGpu() ? " cpu-style" : " gpu-style", (d, p, l) -> {
            boolean style = !d.info().isGpu();
            Random rnd = new Random(23 * p.ordinal() + l.ordinal());
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                int k = e.getKey().equals("long rows") || e.getKey().startsWith("1") ? 11 : 3;
                String what = d.id() + " " + p + " " + l + (style ? " gpu-style" : " cpu-style") + " K=" + k + " " + e.getKey();
                double[] x = rnd.doubles((long) a.cols() * k, -1, 1).toArray();
                try (SpmmExecutor m = SpmmExecutor.createStyled(a, k, l, p, d, style)) {
                    twoProducts(what, a, k, l, p, m, rnd, x);
                }
            }
        });
    }

    /** A^T X through the transposing inspector, against a scatter over A's entries (no transpose built). */
    @TestFactory
    Stream<DynamicTest> transposedProductMatchesAScatter() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (Layout l : Layout.values()) {
                tests.add(DynamicTest.dynamicTest(d.id() + " fp64 transposed " + l, () -> {
                    Random rnd = new Random(31 + l.ordinal());
                    for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                        CsrMatrix a = e.getValue();
                        int k = 3;
                        String what = d.id() + " A^T " + l + " " + e.getKey();
                        double[] x = rnd.doubles((long) a.rows() * k, -1, 1).toArray();
                        double[] want = new double[a.cols() * k];
                        double[] abs = new double[a.cols() * k];
                        int[] len = new int[a.cols()];
                        for (int i = 0; i < a.rows(); i++) {
                            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                                int j = a.colIndex(q);
                                len[j]++;
                                for (int c = 0; c < k; c++) {
                                    double t = a.value(q) * x[l.index(i, c, a.rows(), k)];
                                    want[l.index(j, c, a.cols(), k)] += t;
                                    abs[l.index(j, c, a.cols(), k)] += Math.abs(t);
                                }
                            }
                        }
                        try (SpmmExecutor m = SpmmExecutor.createTransposed(a, k, l, Precision.FP64, d)) {
                            double[] got = m.multiply(1, x, 0, null);
                            assertEquals(a.cols() * k, got.length, what);
                            for (int j = 0; j < a.cols(); j++) {
                                for (int c = 0; c < k; c++) {
                                    int at = l.index(j, c, a.cols(), k);
                                    double bound = 2 * (len[j] + 4) * 0x1p-53 * abs[at] + Double.MIN_NORMAL;
                                    if (!(Math.abs(got[at] - want[at]) <= bound)) fail(what + ": Y[" + j + ", " + c + "] = " + got[at] + ", expected " + want[at]);
                                }
                            }
                        }
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void rejectsBadShapes() {
        CsrMatrix a = MATRICES.get("Nx1");
        try (SpmmExecutor m = SpmmExecutor.create(a, 3, Layout.ROW_MAJOR, Precision.FP64, Devices.jvm())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.setX(new double[4]));
            assertTrue(e.getMessage().contains("X has 4 entries, needs 3"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> SpmmExecutor.create(a, 0, Layout.COL_MAJOR, Precision.FP64, Devices.jvm()));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Layout.parse("diagonal")).getMessage().contains("'diagonal'"));
    }
}
