package dev.squall.linalg.plan;

import dev.squall.linalg.cholesky.CholeskyKernels;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class LaunchSequenceTest {
    static Stream<Arguments> devicesAndPrecisions() {
        return TestDevices.all().stream().flatMap(d -> Stream.of(Precision.values()).map(p -> Arguments.of(d, p)));
    }

    /** Two typed launches of the precision's copy kernel in one plan: the lower triangle of a 7 x 7 matrix, then a 3 x 2 block of it. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void runsItsLaunchesInOrder(Device device, Precision p) {
        int n = 7;
        double[] a = new double[n * n];
        for (int i = 0; i < a.length; i++) a[i] = 1 + i * 0.25;
        KernelArray src = p.fromDoubles(a), dst = p.allocate((long) n * n), block = p.allocate(6);
        Precision.fill(dst, Double.NaN);
        LaunchSequence seq = new LaunchSequence("copies");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, src, dst);
        CopyLaunches.lower(seq, src, 0, n, 0, dst, 0, n, 0, n, 1);
        CopyLaunches.rect(seq, dst, 2 + 4 * n, n, block, 0, 3, 3, 2);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, dst, block);
        assertEquals(List.of("copy_lower_0", "copy_rect_1"), seq.graph().snapshot().taskNames());
        assertEquals(2, seq.launches());
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        double[] got = Precision.toDoubles(dst), gotBlock = Precision.toDoubles(block);
        for (int c = 0; c < n; c++) {
            for (int r = 0; r < n; r++) {
                double want = r >= c ? (p == Precision.FP32 ? (float) a[r + c * n] : a[r + c * n]) : 0;
                assertEquals(want, got[r + c * n], 0, "(" + r + ", " + c + ") on " + device.id());
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int r = 0; r < 3; r++) assertEquals(got[2 + r + (4 + c) * n], gotBlock[r + 3 * c], 0, "block (" + r + ", " + c + ")");
        }
    }

    @Test
    void namesAreUniqueAndTheTargetIsKept() {
        LaunchSequence portable = new LaunchSequence("s");
        assertNull(portable.target());
        assertEquals("gemm_0", portable.taskName("gemm"));
        assertEquals("gemm_1", portable.taskName("gemm"));
        assertEquals("copy_lower_2", portable.taskName("copy_lower"));
        assertEquals(0, portable.launches(), "names alone add no launch");
        Device jvm = Devices.jvm();
        assertSame(jvm, new LaunchSequence("t", jvm).target());
    }

    /** A handle's arrays are checked against its precision when the task is added, naming the task. */
    @Test
    void rejectsArraysOfTheOtherPrecisionWhenAdded() {
        LaunchSequence seq = new LaunchSequence("s");
        KernelArray d = Precision.FP64.allocate(16);
        String name = seq.taskName("copy_lower");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> seq.graph().task(name,
                WorkerGrid.of(256).withLocal(256), CholeskyKernels.copyBlock.at(Precision.FP32), new KernelContext(), d, 0, 4, 0, d, 0, 4, 0, 4, 4, 1, 1));
        assertTrue(e.getMessage().contains("s.copy_lower_0") && e.getMessage().contains("FloatArray"), e.getMessage());
        assertEquals(0, seq.launches());
    }
}
