package dev.squall.permanent.kernel;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.RyserRoundingEstimate;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.Balancing;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class DeviceRoundingEstimateTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /**
     * The device re-computation gives the JVM estimate (an independent implementation of the same sample on the host
     * threads): rounding part alone (run chunk <= L), stretches of x shorter than a sampled chunk, and a drift part
     * over whole run chunks; positive ER matrices and mixed-sign regression matrices (8 orders of magnitude, thinned
     * rows), balanced as the solver sweeps them. The two matrices of order 20 run on the plan kept from the first (same
     * order and run chunks): only the matrix is uploaded again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void matchesTheJvmEstimate(Device d) {
        List<SquareMatrix> matrices = List.of(RandomSquareMatrices.erdosRenyi(20, 0.5, 3), RegressionMatrices.sparse(21, 2),
                RegressionMatrices.banded(20, 5), RandomSquareMatrices.erdosRenyi(23, 0.3, 1));
        int compared = 0, withDrift = 0;
        for (SquareMatrix a : matrices) {
            SquareMatrix s = ColumnDegreeSort.apply(Balancing.of(a).scaled());
            int n = s.n();
            long len = RyserRoundingEstimate.Sample.of(n, 1).length();
            for (long runChunk : new long[] {Math.max(1, len / 4), len, 1L << 12}) {
                String what = "n=" + n + ", run chunk " + runChunk + " on " + d.id();
                assertTrue(DeviceRoundingEstimate.runsOnDevice(n, runChunk), what);
                for (double factor : new double[] {1, RyserRoundingEstimate.GENERATED_KERNEL_ROUNDING}) {
                    RyserRoundingEstimate jvm = RyserRoundingEstimate.of(s, runChunk, factor);
                    RyserRoundingEstimate dev = DeviceRoundingEstimate.of(d, s, runChunk, factor);
                    assertEquals(jvm.sampleSteps(), dev.sampleSteps(), what);
                    assertTrue(Double.isNaN(dev.reference()), what);
                    assertEquals(jvm.termScale(), dev.termScale(), 1e-12 * jvm.termScale(), what + ": term scale");
                    // same arithmetic; only the order of a few compensated additions and fused multiply-adds differ
                    assertEquals(jvm.sampled(), dev.sampled(), 1e-6 * jvm.sampled(), what + ": estimate");
                    assertTrue(dev.sampled() > 0, what);
                    compared++;
                }
                if (RyserRoundingEstimate.driftSteps(n, runChunk) > 0) withDrift++;
            }
        }
        assertEquals(24, compared);
        assertTrue(withDrift >= 4, "drift part exercised " + withDrift + " times");
    }

    /** Orders whose estimate is the full double-double reference stay on the JVM: the same measured error. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void smallOrdersTakeTheJvmReference(Device d) {
        SquareMatrix s = RegressionMatrices.sparse(14, 1);
        assertFalse(DeviceRoundingEstimate.runsOnDevice(14, 64));
        RyserRoundingEstimate jvm = RyserRoundingEstimate.of(s, 64, 1), dev = DeviceRoundingEstimate.of(d, s, 64, 1);
        assertEquals(jvm.reference(), dev.reference());
        assertEquals(jvm.sampled(), dev.sampled());
    }
}
