package dev.squall.permanent;

import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The sweep cost model: closed-form step counts, and the H100 measurements it was fitted to within 2x. */
class SweepCostTest {
    static DeviceInfo gpu(int sms) {
        return new DeviceInfo("cuda", "cuda:0", "test GPU", "test", "0", 80L << 30, 228L << 10, sms, 1024, 32, true, DeviceType.GPU, "9.0");
    }

    static final DeviceInfo H100 = gpu(132);

    @Test
    void generatedKernelTimeIsStepsTimesStepCostPlusTheFixedCost() {
        for (int n : new int[] {2, 10, 21, 33, 40, 47, 63}) {
            for (double d : new double[] {1.0 / n, 0.1, 0.5, 1.0}) {
                long nonzeros = Math.max(n, Math.round(d * n * n));
                double density = (double) nonzeros / ((double) n * n);
                double steps = Math.pow(2, n - 1); // Nijenhuis-Wilf: 2^(n-1) Gray steps
                double want = steps * (0.25 + 4 * density) * 1e-12 + SweepCost.DEVICE_FIXED_SECONDS;
                assertEquals(want, SweepCost.generatedKernelSeconds(n, nonzeros, H100), want * 1e-12, "n=" + n + ", density " + density);
                // half the multiprocessors: twice the sweep
                assertEquals(2 * (want - SweepCost.DEVICE_FIXED_SECONDS) + SweepCost.DEVICE_FIXED_SECONDS,
                        SweepCost.generatedKernelSeconds(n, nonzeros, gpu(66)), want * 1e-12, "66 SMs, n=" + n);
            }
            // one more row doubles the sweep (beyond the fixed cost), at (nearly) equal density
            if (n < 10) continue;
            double a = SweepCost.generatedKernelSeconds(n, (long) n * n / 4, H100) - SweepCost.DEVICE_FIXED_SECONDS;
            double b = SweepCost.generatedKernelSeconds(n + 1, (long) (n + 1) * (n + 1) / 4, H100) - SweepCost.DEVICE_FIXED_SECONDS;
            assertEquals(2.0, b / a, 0.1, "n=" + n);
            assertEquals(Math.pow(2, n - 1) * n / (16 * 1.5e9), SweepCost.jvmSeconds(n, 16), 1e-9 * SweepCost.jvmSeconds(n, 16));
        }
    }

    /**
     * The H100 runs in bench/results/h100/permanent (2026-11-22-paper-sizes, 2026-11-24-trust-latency,
     * 2026-11-24-shared-data-large; ER n=40 p=0.5 from diagnostics/2026-11-25-ncu): order, nonzeros, kernel seconds
     * (device time where recorded, else the launches' wall time). The model must be within 2x of each.
     */
    @Test
    void reproducesTheH100MeasurementsWithinTwoFold() {
        double[][] runs = {
                {40, 182, 0.534}, // hybrid n=40 p=0.1 (launch wall time)
                {40, 792, 1.457}, // hybrid n=40 p=0.5 seed 1, paper sizes (launch wall time)
                {40, 824, 1.219}, // n=40 p=0.5 seed 1 of the ncu run (device time)
                {40, 182, 0.439}, // PureReg n=40 p=0.1
                {40, 792, 1.505}, // PureReg n=40 p=0.5
                {45, 227, 8.66},  // hybrid n=45 p=0.1
                {47, 472, 60.8},  // mycielskian6
                {48, 400, 148.8}, // bcsstk01
                {29, 434, 0.0093},  // n=29 p=0.5 (2^28 steps), warm: launch wall time, mostly the fixed cost
        };
        for (double[] r : runs) {
            double predicted = SweepCost.generatedKernelSeconds((int) r[0], (long) r[1], H100);
            double ratio = predicted / r[2];
            assertTrue(ratio > 0.5 && ratio < 2, String.format("n=%d, %d nonzeros: predicted %.3g s, measured %.3g s", (int) r[0], (long) r[1], predicted, r[2]));
        }
    }

    @Test
    void choosingAGeneratedSweepOnAGpuIncludesItsBuild() {
        assertEquals(SweepCost.generatedKernelSeconds(36, 300, H100) + SweepCost.GENERATED_BUILD_SECONDS, SweepCost.generatedRunSeconds(36, 300, H100), 1e-12);
        assertEquals(SweepCost.jvmSeconds(30, 8), SweepCost.autoSeconds(30, 300, dev.squall.tasks.runtime.Devices.jvm().info(), 8), 1e-12);
    }

    @Test
    void nonGpuDevicesKeepTheFlatRate() {
        DeviceInfo cpu = new DeviceInfo("opencl", "opencl:0:0", "pocl", "pocl", "0", 8L << 30, 64L << 10, 2, 4096, 8, true, DeviceType.CPU, "3.0");
        assertEquals(Math.pow(2, 29) / 5e10 + SweepCost.DEVICE_FIXED_SECONDS, SweepCost.generatedKernelSeconds(30, 450, cpu), 1e-12);
        assertEquals(Math.pow(2, 29) / 5e10 + SweepCost.DEVICE_FIXED_SECONDS, SweepCost.genericKernelSeconds(30, cpu), 1e-12);
    }

    /** The solver's pre-run figure (the CLI's warning): the sweep of the whole matrix by the method it would use. */
    @Test
    void solversExpectedSecondsFollowTheModel() {
        var a = RandomSquareMatrices.erdosRenyi(26, 0.5, 3);
        var jvm = dev.squall.tasks.runtime.Devices.jvm();
        assertEquals(SweepCost.jvmSeconds(26, 4), new PermanentSolver().device(jvm).threads(4).method(Method.SPARSE).expectedSeconds(a), 1e-12);
        assertEquals(10 * SweepCost.jvmSeconds(26, 4), new PermanentSolver().device(jvm).threads(4).accurate(true).expectedSeconds(a), 1e-12);
        // AUTO may take the frontier program where it is cheaper: never above the Ryser figure
        assertTrue(new PermanentSolver().device(jvm).threads(4).expectedSeconds(a) <= SweepCost.jvmSeconds(26, 4));
    }
}
