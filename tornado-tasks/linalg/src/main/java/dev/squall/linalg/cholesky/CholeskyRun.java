package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;

/**
 * A blocked Cholesky factorisation bound to a device, ready to run (repeatedly, for benchmarks).
 * Each {@link #execute()} uploads {@code A} from the host, copies its lower triangle into a
 * device work array (an n^2 copy, included in the time) and factors that, so {@code A} itself is
 * never changed, even on the JVM where device and host memory are the same. On the {@code jvm}
 * device the factorisation is {@link LoopCholesky} (loop-style kernels over the fork-join pool),
 * elsewhere {@link BlockedCholesky}.
 *
 * <pre>{@code
 * try (CholeskyRun run = new CholeskyRun(Devices.select("cuda:0"), a, n)) {
 *     double ms = run.execute().kernelMillis();
 *     double logDet = run.factor().logDeterminant();
 * }
 * }</pre>
 */
public final class CholeskyRun implements AutoCloseable {
    private final KernelArray a, work;
    private final int n;
    private final IntArray info = new IntArray(1);
    private final ExecutionPlan plan; // null with look-ahead
    private final LookaheadCholesky lookahead; // null on the single-queue path
    private final Device device;
    private ExecutionResult last;

    /**
     * Checks sizes and that every entry of the lower triangle is finite, then builds the launches.
     *
     * @throws IllegalArgumentException naming the size mismatch or the first non-finite entry
     */
    public CholeskyRun(Device device, KernelArray a, int n) {
        this(device, a, n, BlockedCholesky.outerBlock(n));
    }

    /**
     * As {@link #CholeskyRun(Device, KernelArray, int)} with the outer block of the device path
     * ({@link BlockedCholesky}, a multiple of 64); the {@code jvm} device ignores it.
     */
    public CholeskyRun(Device device, KernelArray a, int n, int outerBlock) {
        this(device, a, n, outerBlock, true);
    }

    /**
     * As {@link #CholeskyRun(Device, KernelArray, int, int)}; with {@code deviceKernels} false the
     * panel and trailing GEMMs use the portable kernels even where the device has a faster variant
     * (FP64 tensor cores on CUDA), for comparisons.
     */
    public CholeskyRun(Device device, KernelArray a, int n, int outerBlock, boolean deviceKernels) {
        this(device, a, n, outerBlock, deviceKernels, false);
    }

    /**
     * As {@link #CholeskyRun(Device, KernelArray, int, int, boolean)}; with {@code lookahead} the blocked
     * path runs with look-ahead on two queues of the device ({@link LookaheadCholesky}: the next diagonal
     * block is factored while the trailing update runs), on every device, the {@code jvm} included (which
     * otherwise runs {@link LoopCholesky}). The factor is the same as without it, to rounding.
     */
    public CholeskyRun(Device device, KernelArray a, int n, int outerBlock, boolean deviceKernels, boolean lookahead) {
        this(device, a, n, outerBlock, deviceKernels, lookahead, null);
    }

    /**
     * As {@link #CholeskyRun(Device, KernelArray, int, int, boolean, boolean)}, the outer steps' panel solves and trailing
     * updates of the blocked path by {@code outerGemm} (fp64; null: the kernel picked for each product), to compare
     * kernels; the {@code jvm} device's loop path (without look-ahead) has no GEMMs and ignores it.
     */
    public CholeskyRun(Device device, KernelArray a, int n, int outerBlock, boolean deviceKernels, boolean lookahead, GemmKernel outerGemm) {
        this(device, a, n, outerBlock, deviceKernels, lookahead, outerGemm, 0, false);
    }

    /**
     * As {@link #CholeskyRun(Device, KernelArray, int, int, boolean, boolean, GemmKernel)}; with {@code lookahead} and
     * {@code restGroups > 0} the bulk of each trailing update is a persistent launch of at most {@code restGroups}
     * work-groups (fewer than the device's compute units, so that the diagonal chain finds units free) and the panel
     * solves run on the update queue; with {@code splitNext} each step's update of the next block column is split, its
     * diagonal block first, the panel below it with the rest of the update ({@link LookaheadCholesky}).
     */
    public CholeskyRun(Device device, KernelArray a, int n, int outerBlock, boolean deviceKernels, boolean lookahead, GemmKernel outerGemm, int restGroups,
                       boolean splitNext) {
        if (restGroups < 0) throw new IllegalArgumentException("restGroups must be >= 0, got " + restGroups);
        InputChecks.squareBatch("A", a, n, 1);
        InputChecks.finiteLower("A", a, n, 1);
        this.a = a;
        this.work = Precision.of(a).allocate((long) n * n);
        this.n = n;
        this.device = device;
        info.init(Integer.MAX_VALUE);
        boolean blocked = lookahead || device.info().type() != DeviceType.JVM;
        if (blocked) {
            // zeros above the diagonal of work, once: each factorisation copies only A's lower triangle in and clears the
            // band above the diagonal that it writes (BlockedCholesky.WRITTEN_ABOVE), so they stay
            LaunchSequence clear = new LaunchSequence("cholesky_clear_work", deviceKernels ? device : null);
            CopyLaunches.lower(clear, work, 0, n, 0, work, 0, n, 0, n, 1);
            try (ExecutionPlan p = clear.plan(device)) {
                p.execute();
            }
        }
        if (lookahead) {
            this.lookahead = new LookaheadCholesky(device, a, work, n, info, outerBlock, deviceKernels, outerGemm, restGroups, splitNext);
            this.plan = null;
            return;
        }
        this.lookahead = null;
        LaunchSequence seq = new LaunchSequence("cholesky", deviceKernels ? device : null);
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, info);
        if (device.info().type() == DeviceType.JVM) {
            LoopCholesky.append(seq, a, work, n, info);
        } else {
            CopyLaunches.lowerOnly(seq, a, 0, n, work, 0, n, n);
            BlockedCholesky.append(seq, work, n, info, outerBlock, CholeskyPhase.all(), outerGemm, true);
        }
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, info);
        plan = seq.plan(device).withProfiler(true);
    }

    /** Whether this run factors with look-ahead on two queues. */
    public boolean lookahead() {
        return lookahead != null;
    }

    /**
     * Factors on the device.
     *
     * @throws NotPositiveDefiniteException naming the first pivot that is not positive
     */
    public Profile execute() {
        info.init(Integer.MAX_VALUE); // uploaded each time; on the JVM this is the device's copy
        Profile profile;
        if (lookahead != null) {
            LookaheadCholesky.Timed t = lookahead.execute();
            last = t.result();
            profile = t.profile();
        } else {
            last = plan.execute();
            profile = last.profile();
        }
        int pivot = info.get(0);
        if (pivot != Integer.MAX_VALUE) {
            last.transferToHost(work);
            // the failing column is left unscaled, so its diagonal holds the pivot's value
            throw new NotPositiveDefiniteException(pivot, Precision.get(work, pivot + (long) pivot * n));
        }
        return profile;
    }

    /** Copies the factor of the last execution (running one if none ran) to the host and returns it. */
    public CholeskyFactor factor() {
        if (last == null) execute();
        last.transferToHost(work);
        return new CholeskyFactor(work, n);
    }

    public Device device() {
        return device;
    }

    @Override
    public void close() {
        if (plan != null) plan.close();
        if (lookahead != null) lookahead.close();
    }
}
