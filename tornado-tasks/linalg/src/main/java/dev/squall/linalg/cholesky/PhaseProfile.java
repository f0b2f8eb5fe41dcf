package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * Device time of each {@link CholeskyPhase} of {@link BlockedCholesky}: for each phase a plan
 * with only that phase's launches runs on a fresh device copy of {@code A} (restored by a separate
 * plan before every run, outside the timing). Kernel times of GEMMs and copies do not depend on
 * the values; the diagonal factorisations see A's own diagonal blocks, which are SPD, so they run
 * their full length. The phases' sum is close to the full factorisation's time, which is
 * measured the same way; the difference is the idle time between launches that a shorter
 * sequence does not have.
 *
 * <pre>{@code
 * for (PhaseProfile.Row r : PhaseProfile.measure(device, a, 16384, 512, 3)) System.out.println(r);
 * }</pre>
 */
public final class PhaseProfile {
    /** One phase (or {@code phase == null}: the whole factorisation): launches and device milliseconds (median, min). */
    public record Row(CholeskyPhase phase, int launches, double medianMs, double minMs) {
        public String label() {
            return phase == null ? "total" : phase.label();
        }
    }

    private PhaseProfile() {
    }

    /** Measures every phase and the total, {@code repeat} runs each after one warm-up run. */
    public static List<Row> measure(Device device, KernelArray a, int n, int outer, int repeat) {
        return measure(device, a, n, outer, repeat, true);
    }

    /** As {@link #measure(Device, KernelArray, int, int, int)}; {@code deviceKernels} as in {@link CholeskyRun}. */
    public static List<Row> measure(Device device, KernelArray a, int n, int outer, int repeat, boolean deviceKernels) {
        if (device.info().type() == DeviceType.JVM) throw new IllegalArgumentException("the phase profile times BlockedCholesky, which the jvm device does not run (it runs LoopCholesky)");
        InputChecks.squareBatch("A", a, n, 1);
        InputChecks.finiteLower("A", a, n, 1);
        Precision p = Precision.of(a);
        KernelArray work = p.allocate((long) n * n);
        IntArray info = new IntArray(1);
        info.init(Integer.MAX_VALUE);
        LaunchSequence restore = new LaunchSequence("cholesky_restore");
        restore.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, info);
        CopyLaunches.lower(restore, a, 0, n, 0, work, 0, n, 0, n, 1);
        List<Row> rows = new ArrayList<>();
        try (ExecutionPlan reset = restore.plan(device)) {
            for (CholeskyPhase phase : CholeskyPhase.values()) rows.add(time(device, reset, work, n, info, outer, EnumSet.of(phase), phase, repeat, deviceKernels));
            rows.add(time(device, reset, work, n, info, outer, CholeskyPhase.all(), null, repeat, deviceKernels));
        } finally {
            device.free(work);
        }
        return rows;
    }

    private static Row time(Device device, ExecutionPlan reset, KernelArray work, int n, IntArray info, int outer,
                            java.util.Set<CholeskyPhase> phases, CholeskyPhase label, int repeat, boolean deviceKernels) {
        LaunchSequence seq = new LaunchSequence("cholesky_phase", deviceKernels ? device : null);
        BlockedCholesky.append(seq, work, n, info, outer, phases);
        double[] ms = new double[Math.max(1, repeat)];
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            for (int r = -1; r < ms.length; r++) {
                info.init(Integer.MAX_VALUE);
                reset.execute();
                double t = plan.execute().profile().kernelMillis();
                if (r >= 0) ms[r] = t;
            }
        }
        Arrays.sort(ms);
        return new Row(label, seq.launches(), ms[ms.length / 2], ms[0]);
    }
}
