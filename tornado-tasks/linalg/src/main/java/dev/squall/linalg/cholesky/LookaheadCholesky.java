package dev.squall.linalg.cholesky;

import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The blocked Cholesky with look-ahead on two queues of one device: while queue {@code update} applies the
 * bulk of step k's trailing update, queue {@code diagonal} (a {@link Device#newPriorityQueue() priority queue},
 * so that its small launches need not wait for all of a large GEMM's blocks) factors diagonal block k + 1,
 * inverts it and solves its panel, so the latency-bound chain of 64-column steps overlaps the large GEMMs. Block column k + 1 is
 * updated first, on its own ({@link BlockedCholesky#lookahead}'s {@code nextColumn}), and events order the
 * phases of one factorisation:
 * <pre>
 *   update:   copy A -> work | next(0)          rest(0) | next(1)     rest(1) | ... | final copy
 *   diagonal:        diag(0) |        diag(1)           |     diag(2)         | ... diag(K-1)
 * </pre>
 * With a persistent {@code rest} (fewer groups than the device has units, so that the diagonal chain finds units
 * free), the panel solve leaves {@code diag(k)} for {@code solve(k)} on the update queue, after {@code rest(k - 1)}:
 * on the few units left it would take several times longer.
 * {@code next(k)} waits for {@code diag(k)} (it reads panel k), {@code diag(k+1)} for {@code next(k)} (its block
 * column is then up to date: {@code rest(k-1)} ran before it on the same queue), and the final copy for the
 * last {@code diag}. Panels alternate between two buffers: {@code diag(k+2)} overwrites panel k's buffer only
 * after {@code next(k+1)}, which follows {@code rest(k)} on the update queue.
 *
 * <p>The plans are built once, with the queues, and each {@link #execute()} runs one factorisation of the
 * uploaded matrix: {@code A} is copied to the device (not timed), its lower triangle into the work array, and
 * the time reported is the device time from that copy to the end of the final one, across both queues.
 */
final class LookaheadCholesky implements AutoCloseable {
    private final DeviceQueue update, diagonal;
    private final ExecutionPlan upload, prepare, finish, download;
    private final ExecutionPlan[] diag, solve, next, rest;
    private final List<ExecutionPlan> plans = new ArrayList<>();

    /**
     * Plans that factor {@code work} (the lower triangle of {@code a}) on {@code device}; {@code info} is uploaded
     * with {@code a} and read back at the end. {@code deviceKernels}: whether launches may pick the device's
     * kernel variants (the FP64 tensor-core GEMM on CUDA).
     */
    LookaheadCholesky(Device device, KernelArray a, KernelArray work, int n, IntArray info, int outer, boolean deviceKernels) {
        this(device, a, work, n, info, outer, deviceKernels, null);
    }

    /** As the constructor above, the panel solves and updates of the outer steps by {@code outerGemm} (null: picked per product). */
    LookaheadCholesky(Device device, KernelArray a, KernelArray work, int n, IntArray info, int outer, boolean deviceKernels, GemmKernel outerGemm) {
        this(device, a, work, n, info, outer, deviceKernels, outerGemm, 0, false);
    }

    /**
     * As the constructor above; with {@code restGroups > 0} the bulk of each trailing update is a persistent launch
     * of at most that many groups and the panel solves run on the update queue; with {@code splitNext} step k's update
     * of block column k + 1 is split, its diagonal block before {@code diag(k + 1)}, the panel below it with
     * {@code rest(k)} ({@link BlockedCholesky#lookahead}).
     */
    LookaheadCholesky(Device device, KernelArray a, KernelArray work, int n, IntArray info, int outer, boolean deviceKernels, GemmKernel outerGemm,
                      int restGroups, boolean splitNext) {
        Device target = deviceKernels ? device : null;
        BlockedCholesky.LookaheadSteps steps = BlockedCholesky.lookahead("cholesky_lookahead", target, work, n, info, outer, outerGemm, restGroups,
                splitNext);
        update = device.newQueue();
        diagonal = device.newPriorityQueue(); // its short launches go ahead of the pending blocks of the update GEMMs
        LaunchSequence up = new LaunchSequence("cholesky_upload", target);
        up.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, info);
        upload = plan(up, device, update);
        LaunchSequence copyIn = new LaunchSequence("cholesky_copy_in", target);
        // work holds zeros above the diagonal (CholeskyRun clears it once; clearUpperBand below keeps it so)
        CopyLaunches.lowerOnly(copyIn, a, 0, n, work, 0, n, n);
        prepare = plan(copyIn, device, update);
        diag = new ExecutionPlan[steps.steps()];
        solve = new ExecutionPlan[steps.steps()];
        next = new ExecutionPlan[steps.steps() - 1];
        rest = new ExecutionPlan[steps.steps() - 1];
        for (int k = 0; k < diag.length; k++) {
            diag[k] = plan(steps.diagonal()[k], device, diagonal);
            if (steps.solve()[k] != null) solve[k] = plan(steps.solve()[k], device, update);
        }
        for (int k = 0; k < next.length; k++) {
            next[k] = plan(steps.nextColumn()[k], device, update);
            rest[k] = plan(steps.rest()[k], device, update);
        }
        LaunchSequence copyOut = new LaunchSequence("cholesky_copy_out", target);
        // the factorisation writes above the diagonal only near it
        CopyLaunches.clearUpperBand(copyOut, work, 0, n, n, BlockedCholesky.WRITTEN_ABOVE);
        finish = plan(copyOut, device, update);
        LaunchSequence down = new LaunchSequence("cholesky_download", target);
        down.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, info);
        download = plan(down, device, update);
    }

    private ExecutionPlan plan(LaunchSequence seq, Device device, DeviceQueue queue) {
        ExecutionPlan p = seq.plan(device).onQueue(queue);
        plans.add(p);
        return p;
    }

    /** Plans made for one factorisation (for tests of the schedule's shape). */
    int planCount() {
        return plans.size();
    }

    /**
     * Runs one factorisation and waits for it; returns the device time from the first launch to the last, and the
     * download's result (through which the caller copies the factor back).
     */
    Timed execute() {
        long t0 = System.nanoTime();
        upload.execute();
        Event start = update.record();
        ExecutionHandle ready = prepare.executeAsync();
        List<ExecutionHandle> handles = new ArrayList<>(List.of(ready));
        ExecutionHandle factored = solved(diag[0].after(ready.event()).executeAsync(), 0, handles);
        for (int k = 0; k < next.length; k++) {
            ExecutionHandle column = next[k].after(factored.event()).executeAsync();
            ExecutionHandle diagonalDone = diag[k + 1].after(column.event()).executeAsync();
            handles.add(column);
            handles.add(rest[k].executeAsync());
            // with separate solves, solve(k + 1) follows rest(k) on the update queue
            factored = solved(diagonalDone, k + 1, handles);
        }
        handles.add(finish.after(factored.event()).executeAsync());
        Event end = update.record();
        for (ExecutionHandle h : handles) h.await(); // reports a failed launch with the driver's message
        ExecutionResult r = download.execute();
        double ms = end.millisSince(start);
        return new Timed(r, new Profile(0, Double.NaN, ms, Double.NaN, (System.nanoTime() - t0) / 1e3));
    }

    /** Adds {@code diagonalDone} to {@code handles}; returns the handle after which panel k is solved (its solve's, where separate). */
    private ExecutionHandle solved(ExecutionHandle diagonalDone, int k, List<ExecutionHandle> handles) {
        handles.add(diagonalDone);
        if (solve[k] == null) return diagonalDone;
        ExecutionHandle s = solve[k].after(diagonalDone.event()).executeAsync();
        handles.add(s);
        return s;
    }

    /** An execution's download result and its profile (kernel time across both queues). */
    record Timed(ExecutionResult result, Profile profile) {
    }

    /** Releases the plans and both queues (after their work). */
    @Override
    public void close() {
        for (ExecutionPlan p : plans) p.close();
        update.close();
        diagonal.close();
    }
}
