package dev.squall.sparse.sgd;

import dev.squall.sparse.sgd.kernels.SgdKernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.ShortArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The executor: trains factors on a device with a schedule from {@link ScheduleInspector}. The ratings (in schedule
 * order), the tasks and the factors are copied to the device once and stay there across epochs; an epoch is one task
 * graph with one launch per step, and only the parameters (learning rate of the epoch) are copied before it. RMSE is
 * computed on the device (double sums over chunks of ratings, added on the host in order); the factors come back
 * only when asked ({@link #factors()}).
 *
 * <pre>{@code
 * Schedule s = ScheduleInspector.build(split.train(), ScheduleKind.BLKDIAG, new ScheduleInspector.Options(64, 1 << 20, 1, 7));
 * try (SgdTrainer t = new SgdTrainer(split.train(), split.test(), s, TrainingOptions.defaults(32), device, SgdTrainer.Style.AUTO)) {
 *     List<SgdTrainer.EpochStats> history = t.train(20, 3, st -> System.out.println(st));
 *     Factors f = t.factors();
 * }
 * }</pre>
 */
public final class SgdTrainer implements AutoCloseable {
    /**
     * Which update kernel runs: one work-item per task (CPU style), a sub-group per task (GPU style), a sub-group per
     * task with the item row kept and the next ratings' rows prefetched (GPU style, conflict-free schedules only; both
     * rows in registers up to rank 128), or by device and schedule (AUTO: TASKS on CPUs, PREFETCH on GPUs for
     * conflict-free schedules, WARPS for Hogwild). WARPS (Hogwild only) runs {@link SgdKernels#WARPS} sub-groups a
     * work-group, each updating one rating at a time. PIPELINE (conflict-free schedules, rank at most 128, fp32) keeps
     * the rows of the next {@link SgdKernels#PIPELINE} ratings in a ring of registers ({@link SgdKernels#updateTasksPipelined});
     * AUTO picks it on GPUs where it applies.
     */
    public enum Style { AUTO, TASKS, LANES, PREFETCH, WARPS, PIPELINE }

    /**
     * How W and H are kept on the device: fp32, or IEEE half (fp16: half the bytes an update; every load widened and
     * every store rounded to nearest even, arithmetic in fp32). fp16 runs the tasks and lanes kernels (not prefetch).
     */
    public enum Storage { FP32, FP16 }

    /** Ratings per chunk of the RMSE sums. */
    static final int RMSE_CHUNK = 1024;
    /** Lanes per task in the GPU-style kernel: one warp. */
    static final int LANES = 32;
    /** Most work-groups of one GPU-style launch (they stride over the step's tasks). */
    static final int MAX_GROUPS = 1 << 16;

    /** One epoch's figures: RMSE after it (test NaN without a test set), learning rate, device time of the updates, wall time. */
    public record EpochStats(int epoch, float lr, double trainRmse, double testRmse, double kernelMillis, double wallMillis, long updates) {
        /** Updates per second of device time. */
        public double updatesPerSecond() {
            return updates / (kernelMillis * 1e-3);
        }
    }

    private final Ratings train;
    private final Ratings test;
    private final Schedule schedule;
    private final TrainingOptions options;
    private final Device device;
    private final Style kernel;
    private final FloatArray w, h, bu, bi, params;
    /** The fp16 copies of W and H (null with fp32 storage; then w and h hold the factors). */
    private final ShortArray wHalf, hHalf;
    private final Storage storage;
    private final DoubleArray trainSums, testSums;
    private final int trainChunks, testChunks;
    private final ExecutionPlan epochPlan, rmsePlan;
    private final float mean;
    private ExecutionResult last;
    private int epochs;

    /** Trains {@code train} (evaluating on {@code test}, which may be empty or null) in the order of {@code schedule}. */
    public SgdTrainer(Ratings train, Ratings test, Schedule schedule, TrainingOptions o, Device device, Style style) {
        this(train, test, schedule, o, device, style, null);
    }

    /** As above, starting from {@code initial} factors (copied) instead of seeded random ones. */
    public SgdTrainer(Ratings train, Ratings test, Schedule schedule, TrainingOptions o, Device device, Style style, Factors initial) {
        this(train, test, schedule, o, device, style, initial, Storage.FP32);
    }

    /** As above, keeping W and H on the device in {@code storage}. */
    public SgdTrainer(Ratings train, Ratings test, Schedule schedule, TrainingOptions o, Device device, Style style, Factors initial, Storage storage) {
        if (train.size() == 0) throw new IllegalArgumentException("no ratings to train on");
        if (schedule.size() != train.size()) throw new IllegalArgumentException("the schedule holds " + schedule.size() + " ratings, the training set " + train.size());
        int k = o.rank();
        if (k > train.items() || k > train.users()) {
            boolean items = train.items() <= train.users();
            throw new IllegalArgumentException("rank " + k + " is larger than the number of " + (items ? "items (" + train.items() : "users (" + train.users())
                    + "): the factors could not be of full rank and SGD would fit noise; use --rank " + Math.min(train.items(), train.users()) + " or less");
        }
        if (test != null && (test.users() != train.users() || test.items() != train.items())) {
            throw new IllegalArgumentException("test set is " + test.users() + " x " + test.items() + ", training set " + train.users() + " x " + train.items());
        }
        this.train = train;
        this.test = test == null || test.size() == 0 ? null : test;
        this.schedule = schedule;
        this.options = o;
        this.device = device;
        if (style == Style.PREFETCH && !schedule.kind().conflictFree()) {
            throw new IllegalArgumentException("--kernel prefetch needs a conflict-free schedule (blkdiag, diag or stratified), not " + schedule.kind().cliName());
        }
        if (style == Style.PREFETCH && storage == Storage.FP16) {
            throw new IllegalArgumentException("--kernel prefetch keeps fp32 rows; with --storage fp16 use --kernel lanes or tasks");
        }
        if (style == Style.PIPELINE && !schedule.kind().conflictFree()) {
            throw new IllegalArgumentException("--kernel pipeline needs a conflict-free schedule (blkdiag, diag or stratified), not " + schedule.kind().cliName());
        }
        if (style == Style.PIPELINE && (storage == Storage.FP16 || k > 32 * SgdKernels.HELD)) {
            throw new IllegalArgumentException("--kernel pipeline keeps fp32 rows of rank up to " + 32 * SgdKernels.HELD + " in registers, not "
                    + (storage == Storage.FP16 ? "fp16 storage" : "rank " + k) + "; use --kernel prefetch or lanes");
        }
        if (style == Style.WARPS && schedule.kind().conflictFree()) {
            throw new IllegalArgumentException("--kernel warps races ratings against each other (Hogwild); for " + schedule.kind().cliName()
                    + " use --kernel prefetch, lanes or tasks");
        }
        boolean held = k <= 32 * SgdKernels.HELD;
        if (style == Style.WARPS && storage == Storage.FP16 && !held) {
            throw new IllegalArgumentException("--kernel warps with --storage fp16 takes rank up to " + 32 * SgdKernels.HELD + ", not " + k
                    + "; use --kernel lanes");
        }
        this.storage = storage;
        this.kernel = style != Style.AUTO ? style
                : !device.info().isGpu() ? Style.TASKS
                : !schedule.kind().conflictFree() && (held || storage == Storage.FP32) ? Style.WARPS
                : !schedule.kind().conflictFree() ? Style.LANES
                : storage == Storage.FP32 && held ? Style.PIPELINE
                : storage == Storage.FP32 ? Style.PREFETCH : Style.LANES;
        this.mean = initial != null ? initial.mean() : (float) train.mean();
        Factors f0 = initial != null ? initial.copy() : Factors.random(train.users(), train.items(), k, o.biases(), mean, o.seed());
        if (f0.rank() != k || f0.users() != train.users() || f0.items() != train.items() || f0.biases() != o.biases()) {
            throw new IllegalArgumentException("initial factors (" + f0.users() + " x " + f0.items() + ", rank " + f0.rank() + ") do not match the training set and options");
        }
        if (storage == Storage.FP16) {
            w = new FloatArray(1);
            h = new FloatArray(1);
            wHalf = ShortArray.fromArray(toHalf(f0.w()));
            hHalf = ShortArray.fromArray(toHalf(f0.h()));
        } else {
            w = FloatArray.fromArray(f0.w());
            h = FloatArray.fromArray(f0.h());
            wHalf = null;
            hHalf = null;
        }
        bu = o.biases() ? FloatArray.fromArray(f0.userBias()) : new FloatArray(1);
        bi = o.biases() ? FloatArray.fromArray(f0.itemBias()) : new FloatArray(1);
        params = new FloatArray(SgdKernels.PARAMS);
        setParams(o.learningRate(0));

        int n = train.size();
        IntArray user = new IntArray(n), item = new IntArray(n);
        FloatArray rating = new FloatArray(n);
        int[] order = schedule.order();
        for (int p = 0; p < n; p++) {
            int e = order[p];
            user.set(p, train.user(e));
            item.set(p, train.item(e));
            rating.set(p, train.value(e));
        }
        IntArray taskPtr = ints(schedule.taskPtr());
        IntArray stale = kernel == Style.PREFETCH ? ints(staleFlags(train, schedule, SgdKernels.PREFETCH))
                : kernel == Style.PIPELINE ? ints(staleFlags(train, schedule, SgdKernels.PIPELINE)) : new IntArray(1);

        TaskGraph g = new TaskGraph("sgdEpoch").transferToDevice(DataTransferMode.EVERY_EXECUTION, params);
        int[] stepPtr = schedule.stepPtr(), ptr = schedule.taskPtr();
        // WARPS launches as many work-groups as are resident at once (the kernels' launch bounds: 8 an SM at rank <= 128
        // in fp32, 6 in fp16, 4 above rank 128), each sub-group walking ratings G apart, so one wave covers the launch
        // and the next rating's ids load while the current one is updated
        int residentGroups = Math.max(1, device.info().computeUnits()) * (!held ? 4 : storage == Storage.FP16 ? 6 : 8);
        // Hogwild on a GPU: at most inFlight ratings are updated at once (see hogwildInFlight)
        boolean racing = !schedule.kind().conflictFree() && device.info().isGpu();
        int inFlight = racing ? hogwildInFlight(train) : Integer.MAX_VALUE;
        List<int[]> launches = new ArrayList<>();
        for (int s = 0; s < schedule.steps(); s++) {
            int t0 = stepPtr[s], t1 = stepPtr[s + 1];
            // the CPU-style kernel runs a work-item per task, all at once: a racing step is cut into launches of inFlight tasks
            int cut = racing && kernel == Style.TASKS ? inFlight : Integer.MAX_VALUE;
            for (int a = t0; a < t1; a = (int) Math.min(t1, (long) a + cut)) launches.add(new int[] {a, (int) Math.min(t1, (long) a + cut)});
        }
        for (int s = 0; s < launches.size(); s++) {
            int t0 = launches.get(s)[0], t1 = launches.get(s)[1];
            WorkerGrid grid = WorkerGrid.of((long) Math.min(Math.min(t1 - t0, MAX_GROUPS), inFlight) * LANES).withLocal(LANES);
            if (kernel == Style.WARPS) {
                int p0 = ptr[t0], p1 = ptr[t1];
                int groups = (int) Math.max(1, Math.min(Math.min((p1 - p0 + SgdKernels.WARPS - 1) / SgdKernels.WARPS, residentGroups),
                        inFlight / SgdKernels.WARPS));
                WorkerGrid wg = WorkerGrid.of((long) groups * SgdKernels.WARPS * LANES).withLocal(SgdKernels.WARPS * LANES);
                if (storage == Storage.FP16) {
                    g.task("s" + s, wg, SgdKernels::updateRatingsWarpsHalf, new KernelContext(), user, item, rating, wHalf, hHalf, bu, bi, params, p0, p1, k);
                } else if (held) {
                    g.task("s" + s, wg, SgdKernels::updateRatingsWarps, new KernelContext(), user, item, rating, w, h, bu, bi, params, p0, p1, k);
                } else {
                    g.task("s" + s, wg, SgdKernels::updateRatingsWarpsWide, new KernelContext(), user, item, rating, w, h, bu, bi, params, p0, p1, k);
                }
            } else if (storage == Storage.FP16) {
                if (kernel == Style.LANES) {
                    g.task("s" + s, grid, SgdKernels::updateTasksLanesHalf, new KernelContext(), taskPtr, user, item, rating, wHalf, hHalf, bu, bi, params, t0, t1, k);
                } else {
                    g.task("s" + s, SgdKernels::updateTasksHalf, taskPtr, user, item, rating, wHalf, hHalf, bu, bi, params, t0, t1, k);
                }
            } else if (kernel == Style.PIPELINE) {
                g.task("s" + s, grid, SgdKernels::updateTasksPipelined, new KernelContext(), taskPtr, user, item, rating, stale, w, h, bu, bi, params, t0, t1, k);
            } else if (kernel == Style.PREFETCH && held) {
                g.task("s" + s, grid, SgdKernels::updateTasksPrefetchHeld, new KernelContext(), taskPtr, user, item, rating, stale, w, h, bu, bi, params, t0, t1, k);
            } else if (kernel == Style.PREFETCH) {
                g.task("s" + s, grid, SgdKernels::updateTasksPrefetch, new KernelContext(), taskPtr, user, item, rating, stale, w, h, bu, bi, params, t0, t1, k);
            } else if (kernel == Style.LANES) {
                g.task("s" + s, grid, SgdKernels::updateTasksLanes, new KernelContext(), taskPtr, user, item, rating, w, h, bu, bi, params, t0, t1, k);
            } else {
                g.task("s" + s, SgdKernels::updateTasks, taskPtr, user, item, rating, w, h, bu, bi, params, t0, t1, k);
            }
        }
        epochPlan = new ExecutionPlan(g.snapshot());
        epochPlan.withDevice(device).withProfiler(true);

        trainChunks = (n + RMSE_CHUNK - 1) / RMSE_CHUNK;
        trainSums = new DoubleArray(trainChunks);
        TaskGraph r = new TaskGraph("sgdRmse").transferToDevice(DataTransferMode.EVERY_EXECUTION, params);
        if (storage == Storage.FP16) r.task("train", SgdKernels::squaredErrorsHalf, user, item, rating, wHalf, hHalf, bu, bi, params, trainSums, n, k, RMSE_CHUNK, trainChunks);
        else r.task("train", SgdKernels::squaredErrors, user, item, rating, w, h, bu, bi, params, trainSums, n, k, RMSE_CHUNK, trainChunks);
        if (this.test != null) {
            int m = this.test.size();
            testChunks = (m + RMSE_CHUNK - 1) / RMSE_CHUNK;
            testSums = new DoubleArray(testChunks);
            IntArray tu = ints(this.test.userArray()), ti = ints(this.test.itemArray());
            FloatArray tv = FloatArray.fromArray(this.test.valueArray());
            if (storage == Storage.FP16) r.task("test", SgdKernels::squaredErrorsHalf, tu, ti, tv, wHalf, hHalf, bu, bi, params, testSums, m, k, RMSE_CHUNK, testChunks);
            else r.task("test", SgdKernels::squaredErrors, tu, ti, tv, w, h, bu, bi, params, testSums, m, k, RMSE_CHUNK, testChunks);
            r.transferToHost(DataTransferMode.EVERY_EXECUTION, trainSums, testSums);
        } else {
            testChunks = 0;
            testSums = null;
            r.transferToHost(DataTransferMode.EVERY_EXECUTION, trainSums);
        }
        rmsePlan = new ExecutionPlan(r.snapshot());
        rmsePlan.withDevice(device);
    }

    private void setParams(float lr) {
        params.set(SgdKernels.LR, lr);
        params.set(SgdKernels.REG, (float) options.reg());
        params.set(SgdKernels.REG_BIAS, (float) options.regBias());
        params.set(SgdKernels.MEAN, mean);
        params.set(SgdKernels.BIASES, options.biases() ? 1f : 0f);
    }

    /** Whether a GPU-style kernel (a sub-group per task) runs. */
    public boolean lanes() {
        return kernel != Style.TASKS;
    }

    /** The update kernel that runs (never AUTO). */
    public Style kernel() {
        return kernel;
    }

    /**
     * For each position {@code p} of the schedule's order, 1 when the user of rating {@code p} also rates one of the
     * {@code depth - 1} positions before it in the same task (so a row prefetched {@code depth} ratings ahead is
     * stale by then), else 0.
     */
    static int[] staleRows(Ratings r, Schedule s, int depth) {
        int[] order = s.order(), taskPtr = s.taskPtr();
        int[] out = new int[order.length];
        int[] last = new int[r.users()];
        java.util.Arrays.fill(last, -1);
        for (int t = 0; t < s.tasks(); t++) {
            for (int p = taskPtr[t]; p < taskPtr[t + 1]; p++) {
                int u = r.user(order[p]);
                if (last[u] >= taskPtr[t] && p - last[u] < depth) out[p] = 1;
                last[u] = p;
            }
        }
        return out;
    }

    /**
     * For each position {@code p} of the schedule's order, 1 when the item of rating {@code p} starts a new run of its
     * task (the rating before it in the task has another item) and also rates one of the positions {@code p - depth ..
     * p - 2} of the task: its row was written back (when that earlier run ended) after the prefetch for {@code p},
     * issued {@code depth} ratings ahead, had started. Else 0.
     */
    static int[] staleItems(Ratings r, Schedule s, int depth) {
        int[] order = s.order(), taskPtr = s.taskPtr();
        int[] out = new int[order.length];
        int[] last = new int[r.items()];
        java.util.Arrays.fill(last, -1);
        for (int t = 0; t < s.tasks(); t++) {
            for (int p = taskPtr[t]; p < taskPtr[t + 1]; p++) {
                int i = r.item(order[p]);
                if (last[i] >= taskPtr[t] && last[i] != p - 1 && p - last[i] <= depth) out[p] = 1;
                last[i] = p;
            }
        }
        return out;
    }

    /**
     * The {@code stale} flags of {@link SgdKernels#updateTasksPrefetch} with rows prefetched {@code depth} ratings
     * ahead: {@link SgdKernels#STALE_USER} from {@link #staleRows}, {@link SgdKernels#STALE_ITEM} from {@link #staleItems}.
     */
    static int[] staleFlags(Ratings r, Schedule s, int depth) {
        int[] users = staleRows(r, s, depth), items = staleItems(r, s, depth);
        int[] out = new int[users.length];
        for (int p = 0; p < out.length; p++) out[p] = users[p] * SgdKernels.STALE_USER + items[p] * SgdKernels.STALE_ITEM;
        return out;
    }

    /**
     * The most ratings a Hogwild launch updates at once on a GPU: half the smaller side of the matrix, so that a row
     * has on average fewer than one concurrent update. Concurrent updates of one row lose all but the last write, and
     * that biases the result, not only its speed: on {@code small} (1,000 items) with 4,096 ratings in flight Hogwild
     * ended 12 epochs 2.1-2.2 % above the floor on the H100 (0.511), and a host model of the race (each batch reads the
     * factors at its start, the last write of a row wins) gives 0.5120 against 0.5075 in sequence, 0.5077 with 512 in
     * flight, 0.5075 when the concurrent updates are added instead (sparse/SGD.md). The Netflix shape (17,771 items)
     * allows 8,885, more than the H100's 8,448 resident sub-groups: no change there.
     */
    static int hogwildInFlight(Ratings train) {
        return Math.max(1, Math.min(train.users(), train.items()) / 2);
    }

    /** The schedule being run. */
    public Schedule schedule() {
        return schedule;
    }

    /** Train and test RMSE of the current factors ({@code [1]} NaN without a test set). */
    public double[] rmse() {
        last = rmsePlan.execute();
        double tr = Math.sqrt(sum(trainSums, trainChunks) / train.size());
        double te = test == null ? Double.NaN : Math.sqrt(sum(testSums, testChunks) / test.size());
        return new double[] {tr, te};
    }

    /** Runs one epoch (every step once, with this epoch's learning rate) and measures the RMSE after it. */
    public EpochStats epoch() {
        long t0 = System.nanoTime();
        float lr = options.learningRate(epochs);
        setParams(lr);
        last = epochPlan.execute();
        double kernelMs = last.profile().kernelMillis();
        double wallMs = (System.nanoTime() - t0) / 1e6;
        double[] r = rmse();
        return new EpochStats(++epochs, lr, r[0], r[1], kernelMs, wallMs, train.size());
    }

    /**
     * Up to {@code maxEpochs} epochs, stopping early when the watched RMSE (test, or train without a test set) has not
     * improved by 0.01% for {@code patience} epochs in a row (0: never stop early). {@code listener} sees each epoch.
     */
    public List<EpochStats> train(int maxEpochs, int patience, Consumer<EpochStats> listener) {
        return train(maxEpochs, patience, 0, listener);
    }

    /**
     * As {@link #train(int, int, Consumer)}, also stopping after the first epoch whose watched RMSE is at most
     * {@code target} (0: no target).
     */
    public List<EpochStats> train(int maxEpochs, int patience, double target, Consumer<EpochStats> listener) {
        if (!(target >= 0)) throw new IllegalArgumentException("--target-rmse " + target + " must be at least 0");
        if (maxEpochs < 0) throw new IllegalArgumentException("--epochs " + maxEpochs + " must be at least 0");
        if (patience < 0) throw new IllegalArgumentException("--patience " + patience + " must be at least 0");
        List<EpochStats> out = new ArrayList<>();
        double best = Double.POSITIVE_INFINITY;
        int stale = 0;
        for (int e = 0; e < maxEpochs; e++) {
            EpochStats s = epoch();
            out.add(s);
            if (listener != null) listener.accept(s);
            double watched = test != null ? s.testRmse() : s.trainRmse();
            if (!Double.isFinite(watched)) throw new IllegalStateException("RMSE became " + watched + " in epoch " + s.epoch() + ": SGD diverged; lower --lr");
            if (watched <= target) break;
            if (watched < best * (1 - 1e-4)) {
                best = watched;
                stale = 0;
            } else if (patience > 0 && ++stale >= patience) {
                break;
            }
        }
        return out;
    }

    /** The current factors, copied back from the device. */
    public Factors factors() {
        if (last == null) rmse();
        if (storage == Storage.FP16) {
            if (options.biases()) last.transferToHost(wHalf, hHalf, bu, bi);
            else last.transferToHost(wHalf, hHalf);
            return new Factors(train.users(), train.items(), options.rank(), fromHalf(wHalf.toHeapArray()), fromHalf(hHalf.toHeapArray()),
                    options.biases() ? bu.toHeapArray() : null, options.biases() ? bi.toHeapArray() : null, mean);
        }
        if (options.biases()) last.transferToHost(w, h, bu, bi);
        else last.transferToHost(w, h);
        return new Factors(train.users(), train.items(), options.rank(), w.toHeapArray(), h.toHeapArray(),
                options.biases() ? bu.toHeapArray() : null, options.biases() ? bi.toHeapArray() : null, mean);
    }

    private static double sum(DoubleArray a, int n) {
        double s = 0;
        for (int c = 0; c < n; c++) s += a.get(c);
        return s;
    }

    /** The storage W and H are kept in. */
    public Storage storage() {
        return storage;
    }

    /** {@code v} rounded to fp16 (nearest even, as the kernels' stores). */
    static short[] toHalf(float[] v) {
        short[] out = new short[v.length];
        for (int i = 0; i < v.length; i++) out[i] = Float.floatToFloat16(v[i]);
        return out;
    }

    private static float[] fromHalf(short[] v) {
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) out[i] = Float.float16ToFloat(v[i]);
        return out;
    }

    private static IntArray ints(int[] v) {
        IntArray a = new IntArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) a.set(i, v[i]);
        return a;
    }

    /** Frees the device copies and the plans. */
    @Override
    public void close() {
        epochPlan.freeDeviceMemory();
        rmsePlan.freeDeviceMemory();
        epochPlan.close();
        rmsePlan.close();
    }
}
