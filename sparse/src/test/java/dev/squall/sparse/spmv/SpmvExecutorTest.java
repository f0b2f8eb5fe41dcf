package dev.squall.sparse.spmv;

import static dev.squall.sparse.testing.SpmvChecks.check;
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

/** Every executor, in both precisions, on every device, against the sequential reference. */
class SpmvExecutorTest {
    static final Map<String, CsrMatrix> MATRICES = TestMatrices.all();

    static boolean refuses(SpmvFormat f, CsrMatrix a) {
        if (a.nnz() == 0) return false;
        if (f == SpmvFormat.DIA) {
            // independent count of occupied diagonals
            java.util.Set<Integer> diags = new java.util.HashSet<>();
            for (int i = 0; i < a.rows(); i++) for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) diags.add(a.colIndex(k) - i);
            return (long) diags.size() * a.rows() > 20L * a.nnz() + a.rows();
        }
        if (f == SpmvFormat.ELL) {
            int max = 0;
            for (int i = 0; i < a.rows(); i++) max = Math.max(max, a.rowLength(i));
            return (long) max * a.rows() > 20L * a.nnz() + a.rows();
        }
        return false;
    }

    /** alpha 1 and beta 0 over a poisoned y (y must not be read), then alpha -1.5 and beta 0.5. */
    private static void twoProducts(String what, CsrMatrix a, Precision p, SpmvExecutor s, Random rnd, double[] x) {
        s.setY(DeviceCases.poison(a.rows()));
        check(what + " (alpha 1, beta 0)", a, p, 1, x, 0, null, s.multiply(1, x, 0, null));
        double[] y0 = rnd.doubles(a.rows(), -1, 1).toArray();
        check(what + " (alpha -1.5, beta 0.5)", a, p, -1.5, x, 0.5, y0, s.multiply(-1.5, x, 0.5, y0));
    }

    @TestFactory
    Stream<DynamicTest> everyFormatMatchesTheReference() {
        return DeviceCases.each(SpmvFormat.values(), d -> "", (d, p, f) -> {
            Random rnd = new Random(f.ordinal() * 31 + p.ordinal());
            int checked = 0;
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                String what = d.id() + " " + p + " " + f.cliName() + " " + e.getKey();
                if (refuses(f, a)) {
                    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                            () -> SpmvExecutor.create(a, f, p, d), what);
                    assertTrue(ex.getMessage().contains(f == SpmvFormat.DIA ? "DIA would store" : "ELL would pad"), ex.getMessage());
                    continue;
                }
                double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                try (SpmvExecutor s = SpmvExecutor.create(a, f, p, d)) {
                    twoProducts(what, a, p, s, rnd, x);
                    // a second execution with the data resident gives the same y (beta 0 again)
                    s.setCoefficients(2, 0);
                    s.execute();
                    s.execute();
                    check(what + " (resident, alpha 2)", a, p, 2, x, 0, null, s.y());
                    // a timed batch of back-to-back calls leaves the same y (beta 0)
                    double ms = s.batchMillis(3);
                    assertTrue(ms >= 0 && ms < 60_000, what + " batch time " + ms);
                    check(what + " (after a batch of 3)", a, p, 2, x, 0, null, s.y());
                }
                checked++;
            }
            // only DIA and ELL may refuse (scattered or skewed matrices); they must still run the regular ones
            if (f == SpmvFormat.DIA || f == SpmvFormat.ELL) assertTrue(checked >= 5, f + " checked only " + checked + " matrices");
            else assertEquals(MATRICES.size(), checked);
        });
    }

    /**
     * The launches of the other kind of device: GPU-style launches (csr-scalar, 8 items per merge or COO
     * work-item) on the JVM and PoCL, CPU-style ones (CSR row blocks, 256 items per work-item) on GPUs,
     * so every kernel is checked on every device whatever the device's own kind picks.
     */
    @TestFactory
    Stream<DynamicTest> otherDeviceKindsLaunchesMatchTheReference() {
        SpmvFormat[] formats = {SpmvFormat.CSR, SpmvFormat.CSR_MERGE, SpmvFormat.COO, SpmvFormat.HYB};
        return DeviceCases.each(formats, d -> d.info().isGpu() ? " cpu-style" : " gpu-style", (d, p, f) -> {
            boolean style = !d.info().isGpu();
            Random rnd = new Random(7 * f.ordinal() + p.ordinal());
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                String what = d.id() + " " + p + " " + f.cliName() + (style ? " gpu-style " : " cpu-style ") + e.getKey();
                double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                try (SpmvExecutor s = SpmvExecutor.createStyled(a, f, p, d, style)) {
                    twoProducts(what, a, p, s, rnd, x);
                }
            }
        });
    }

    /** A^T x through the transposing inspector, against a scatter over A's entries (no transpose built). */
    @TestFactory
    Stream<DynamicTest> transposedProductMatchesAScatter() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (Precision p : Precision.values()) {
                for (SpmvFormat f : new SpmvFormat[] {SpmvFormat.CSR, SpmvFormat.CSR_BINNED, SpmvFormat.SELL}) {
                    tests.add(DynamicTest.dynamicTest(d.id() + " " + p + " transposed " + f.cliName(), () -> {
                        Random rnd = new Random(99 + f.ordinal());
                        for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                            CsrMatrix a = e.getValue();
                            String what = d.id() + " " + p + " A^T " + f.cliName() + " " + e.getKey();
                            double[] x = rnd.doubles(a.rows(), -1, 1).toArray();
                            double u = p == Precision.FP32 ? 0x1p-24 : 0x1p-53;
                            double[] want = new double[a.cols()];
                            double[] abs = new double[a.cols()];
                            int[] len = new int[a.cols()];
                            for (int i = 0; i < a.rows(); i++) {
                                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                                    double t = (p == Precision.FP32 ? (float) a.value(k) : a.value(k)) * (p == Precision.FP32 ? (float) x[i] : x[i]);
                                    want[a.colIndex(k)] += t;
                                    abs[a.colIndex(k)] += Math.abs(t);
                                    len[a.colIndex(k)]++;
                                }
                            }
                            try (SpmvExecutor s = SpmvExecutor.createTransposed(a, f, p, d)) {
                                double[] got = s.multiply(1, x, 0, null);
                                assertEquals(a.cols(), got.length, what);
                                for (int j = 0; j < a.cols(); j++) {
                                    double bound = 2 * (len[j] + 4) * u * abs[j] + Double.MIN_NORMAL;
                                    if (!(Math.abs(got[j] - want[j]) <= bound)) fail(what + ": y[" + j + "] = " + got[j] + ", expected " + want[j]);
                                }
                            }
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    @Test
    void rejectsWrongVectorLengths() {
        CsrMatrix a = MATRICES.get("1xN");
        try (SpmvExecutor s = SpmvExecutor.create(a, SpmvFormat.CSR, Precision.FP64, Devices.jvm())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.setX(new double[3]));
            assertTrue(e.getMessage().contains("x has 3 entries, the matrix needs 1333"), e.getMessage());
        }
    }

    /** CSR with 64-bit row pointers (the path for 2^31 or more entries), forced on the small test matrices. */
    @TestFactory
    Stream<DynamicTest> longOffsetCsrMatchesTheReference() {
        return DeviceCases.each(new String[] {"csr-long"}, d -> "", (d, p, name) -> {
            Random rnd = new Random(41 + p.ordinal());
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                String what = d.id() + " " + p + " " + name + " " + e.getKey();
                double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                try (SpmvExecutor s = SpmvExecutor.createWithLongOffsets(a, SpmvFormat.CSR, p, d)) {
                    if (a.nnz() > 0) assertTrue(s.detail().contains("64-bit row pointers"), what + ": " + s.detail());
                    twoProducts(what, a, p, s, rnd, x);
                }
            }
        });
    }

    @Test
    void formatsWithoutLongOffsetsAreRefusedByName() {
        CsrMatrix a = MATRICES.values().iterator().next();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpmvExecutor.createWithLongOffsets(a, SpmvFormat.SELL, Precision.FP64, Devices.jvm()));
        assertTrue(e.getMessage().contains("sell keeps 32-bit entry offsets") && e.getMessage().contains("use --format csr"), e.getMessage());
    }

    /** One launch (the last group of a long row adds its segments) and two launches add in the same order: same bits. */
    @TestFactory
    Stream<DynamicTest> oneAndTwoLaunchCsrBinnedGiveTheSameBits() {
        return DeviceCases.each(new String[] {"csr-binned"}, d -> "", (d, p, name) -> {
            Random rnd = new Random(43 + p.ordinal());
            for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                CsrMatrix a = e.getValue();
                double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                try (SpmvExecutor one = SpmvExecutor.createStyled(a, SpmvFormat.CSR_BINNED, p, d, true);
                     SpmvExecutor two = SpmvExecutor.createStyled(a, SpmvFormat.CSR_BINNED_TWO_LAUNCH, p, d, true)) {
                    one.setY(DeviceCases.poison(a.rows()));
                    double[] want = two.multiply(1, x, 0, null);
                    double[] got = one.multiply(1, x, 0, null);
                    one.execute(); // again: the counters must have been re-armed
                    double[] again = one.y();
                    for (int i = 0; i < a.rows(); i++) {
                        String what = d.id() + " " + p + " " + e.getKey() + " row " + i;
                        assertEquals(Double.doubleToLongBits(want[i]), Double.doubleToLongBits(got[i]), what + ": " + got[i] + " vs " + want[i]);
                        assertEquals(Double.doubleToLongBits(want[i]), Double.doubleToLongBits(again[i]), what + " (second run)");
                    }
                }
            }
        });
    }

    /** csr-binned's knobs (lanes per row, 4 in flight, group and segment sizes, bins by length), one and two launches. */
    @TestFactory
    Stream<DynamicTest> csrBinnedKnobsMatchTheReference() {
        String[] knobs = {"e4/u4", "e8/u4/len", "len", "g128/s256/w64", "e4/u4/g512/w1024/len"};
        return DeviceCases.each(knobs, d -> "", (d, p, k) -> {
            BinnedTuning t = BinnedTuning.parse(k);
            assertEquals("/" + k, t.suffix());
            Random rnd = new Random(k.hashCode() + p.ordinal());
            for (SpmvFormat f : new SpmvFormat[] {SpmvFormat.CSR_BINNED, SpmvFormat.CSR_BINNED_TWO_LAUNCH}) {
                for (Map.Entry<String, CsrMatrix> e : MATRICES.entrySet()) {
                    CsrMatrix a = e.getValue();
                    String what = d.id() + " " + p + " " + f.cliName() + t.suffix() + " " + e.getKey();
                    double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                    try (SpmvExecutor s = SpmvExecutor.createStyled(a, f, p, d, true, t)) {
                        twoProducts(what, a, p, s, rnd, x);
                        s.setCoefficients(1, 0);
                        s.execute(); // again: one launch's counters re-armed
                        check(what + " (second run)", a, p, 1, x, 0, null, s.y());
                    }
                }
            }
        });
    }

    @Test
    void knobsAreRefusedWhereTheyDoNotApply() {
        CsrMatrix a = MATRICES.values().iterator().next();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpmvExecutor.create(a, SpmvFormat.SELL, Precision.FP64, Devices.jvm(), BinnedTuning.parse("e4")));
        assertTrue(e.getMessage().contains("sell takes no knobs"), e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedTuning.parse("u3")).getMessage().contains("u3"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedTuning.parse("x4")).getMessage().contains("x4"));
        assertEquals(BinnedTuning.DEFAULT, BinnedTuning.parse(""));
        assertEquals("", BinnedTuning.DEFAULT.suffix());
    }
}
