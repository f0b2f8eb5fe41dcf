package dev.squall.linalg.cholesky;

import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/** Phase-filtered launch sequences of the device Cholesky, and a non-default outer block. */
class PhaseProfileTest {
    static List<Device> nonJvmDevices() {
        return TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).toList();
    }

    /**
     * n = 300, outer block 128: three outer steps (128, 128, 44), two with a panel. The phases
     * partition the launches: one panel GEMM and one trailing GEMM per step with a panel, and the
     * phase counts add up to the full sequence's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("nonJvmDevices")
    void phasesPartitionTheLaunches(Device device) {
        int n = 300;
        KernelArray a = Precision.FP64.fromDoubles(Matrices.spd(new SplittableRandom(4), n, 0.5));
        List<PhaseProfile.Row> rows = PhaseProfile.measure(device, a, n, 128, 1);
        Map<String, PhaseProfile.Row> byLabel = rows.stream().collect(Collectors.toMap(PhaseProfile.Row::label, r -> r));
        assertEquals(CholeskyPhase.values().length + 1, rows.size());
        assertEquals(2, byLabel.get("trailing-update").launches());
        assertEquals(2, byLabel.get("panel-solve").launches());
        assertEquals(3, byLabel.get("copy").launches(), "two panel copies and the final upper-triangle clear");
        int sum = rows.stream().filter(r -> r.phase() != null).mapToInt(PhaseProfile.Row::launches).sum();
        assertEquals(byLabel.get("total").launches(), sum);
        for (PhaseProfile.Row r : rows) assertTrue(r.medianMs() >= 0 && r.minMs() <= r.medianMs(), r.toString());
    }

    /** The device path with outer block 128 (n = 300 > 2 * 128, so the outer steps really use it). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("nonJvmDevices")
    void outerBlock128Factors(Device device) {
        int n = 300;
        double[] a = Matrices.spd(new SplittableRandom(6), n, 0.5);
        double[] l;
        try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, 128)) {
            run.execute();
            l = Precision.toDoubles(run.factor().l());
        }
        assertTrue(Residuals.upperIsZero(n, l, 0));
        assertTrue(Residuals.cholesky(n, l, a) < 1e-14);
        Compare.close("L block 128 on " + device.id(), ReferenceCholesky.factor(n, a), l, 1e-11);
    }

    @Test
    void refusesJvmAndBadBlocks() {
        KernelArray a = Precision.FP64.fromDoubles(Matrices.spd(new SplittableRandom(1), 10, 1));
        IllegalArgumentException jvm = assertThrows(IllegalArgumentException.class, () -> PhaseProfile.measure(Devices.get("jvm"), a, 10, 64, 1));
        assertTrue(jvm.getMessage().contains("jvm"), jvm.getMessage());
        for (Device d : nonJvmDevices()) {
            IllegalArgumentException block = assertThrows(IllegalArgumentException.class, () -> PhaseProfile.measure(d, a, 10, 100, 1));
            assertTrue(block.getMessage().contains("multiple of 64, got 100"), block.getMessage());
        }
    }
}
