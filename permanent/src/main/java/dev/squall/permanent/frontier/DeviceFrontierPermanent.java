package dev.squall.permanent.frontier;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;

import java.util.ArrayList;
import java.util.List;

/**
 * The frontier program ({@link FrontierPermanent}) on a device: the states of a row are a dense table over all
 * {@code 2^w} subsets of the {@code w} column slots, one launch per row of {@link FrontierKernels#row} with one
 * work-item per state, two tables swapped between rows, all rows in one task graph, and only the final state read
 * back. Rows are scaled by powers of two to 1-norms in [1, 2) first (exact), so the table's values stay below 2^n.
 * The bound is the JVM program's: {@code gamma_k perm(|A|)}, {@code k = n + nnz} roundings along any matching (a
 * state's sum of at most {@code deg} products per row, in whatever order).
 * Memory: two tables of {@code 2 * 2^w} doubles, 1 GiB each at {@code w = 25}; widths above {@link #MAX_WIDTH} are refused.
 *
 * <pre>{@code
 * FrontierPermanent.Result r = DeviceFrontierPermanent.compute(Devices.get("cuda:0"), FrontierPlan.of(a));
 * }</pre>
 */
public final class DeviceFrontierPermanent {
    /** Largest frontier width run on a device (two tables of 2^(w+1) doubles: 8 GiB at 28). */
    public static final int MAX_WIDTH = 28;
    private static final int GROUP = 128;

    private DeviceFrontierPermanent() {
    }

    /** Host and launch time per row: one task of the graph (argument binding, launch). */
    static final double ROW_LAUNCH_SECONDS = 1.5e-4;
    /** Bytes per second of allocating, clearing and releasing the two tables on the host and the device. */
    static final double TABLE_BYTES_PER_SECOND = 2e9;
    /** Table traffic per second on the device (gathers at stride 2^slot: coalesced for low slots, scattered for high ones). */
    static final double DEVICE_BYTES_PER_SECOND = 1.5e12;
    /** A process's first run on a GPU: loading the frontier kernels' module from the build cache, first launches. */
    static final double FIRST_RUN_SECONDS = 0.25;
    /** Fixed cost of a run: the task graph's set-up, the final read-back. */
    static final double FIXED_SECONDS = 2e-3;
    /** Devices whose frontier kernels ran in this process. */
    private static final java.util.Set<String> RAN_ON = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Estimated seconds of a run when the frontier kernels already ran on the device in this process: per row a launch,
     * {@code (deg + 2)} reads and writes of a 16-byte pair per state on the device, and the two tables of
     * {@code 2^(w+1)} doubles allocated and cleared. Fitted to the H100 runs in
     * {@code bench/results/h100/permanent/2026-11-25-restart-estimate} (mesh n = 50..60, w = 16-17; dense34 w = 22;
     * mesh1e1 w = 27): within 1.5x of each (permanent/PERF.md).
     */
    public static double estimatedSeconds(FrontierPlan plan) {
        SquareMatrix m = plan.matrix();
        double traffic = 0;
        for (int i = 0; i < m.n(); i++) {
            int deg = 0;
            for (int j = 0; j < m.n(); j++) if (m.get(i, j) != 0) deg++;
            traffic += Math.scalb(16.0 * (deg + 2), plan.width());
        }
        double tables = Math.scalb(2 * 16.0, plan.width());
        return traffic / DEVICE_BYTES_PER_SECOND + tables / TABLE_BYTES_PER_SECOND + (m.n() + 2) * ROW_LAUNCH_SECONDS + FIXED_SECONDS;
    }

    /** {@link #estimatedSeconds(FrontierPlan)} on this device, plus {@link #FIRST_RUN_SECONDS} on a GPU where none ran in this process yet. */
    public static double estimatedSeconds(FrontierPlan plan, Device device) {
        boolean first = device.info().isGpu() && !RAN_ON.contains(device.id());
        return estimatedSeconds(plan) + (first ? FIRST_RUN_SECONDS : 0);
    }

    public static FrontierPermanent.Result compute(Device device, FrontierPlan plan) {
        int w = Math.max(1, plan.width());
        if (w > MAX_WIDTH) throw new IllegalArgumentException("frontier width " + w + " exceeds the device program's " + MAX_WIDTH + " (2^" + w + " states)");
        SquareMatrix m = plan.matrix();
        int n = m.n();
        int states = 1 << w;
        FrontierPlan.ColumnSpans spans = FrontierPlan.ColumnSpans.of(m);
        int[] first = spans.first(), last = spans.last();
        // rows scaled by 2^-e to 1-norms in [1, 2): exact, the values then stay below 2^n
        long exponent = 0;
        List<Integer> bits = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        int[] offset = new int[n], degree = new int[n], closingAfter = new int[n];
        int[] slot = new int[n];
        int free = w >= 31 ? -1 : (1 << w) - 1;
        long nonzeros = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (first[j] == i) {
                    int s = Integer.numberOfTrailingZeros(free);
                    free &= ~(1 << s);
                    slot[j] = s;
                }
            }
            double norm = 0;
            for (int j = 0; j < n; j++) norm += Math.abs(m.get(i, j));
            int e = norm > 0 ? Math.getExponent(norm) : 0;
            exponent += e;
            offset[i] = bits.size();
            for (int j = 0; j < n; j++) {
                double v = m.get(i, j);
                if (v == 0) continue;
                bits.add(1 << slot[j]);
                vals.add(Math.scalb(v, -e));
                degree[i]++;
                nonzeros++;
            }
            int closing = 0;
            for (int j = 0; j < n; j++) if (last[j] == i) closing |= 1 << slot[j];
            closingAfter[i] = closing;
            free |= closing;
        }
        if (bits.isEmpty()) return new FrontierPermanent.Result(ScaledValue.ZERO, ScaledValue.ZERO, ScaledValue.ZERO, 0);
        IntArray bitArray = IntArray.fromArray(bits.stream().mapToInt(Integer::intValue).toArray());
        DoubleArray valArray = DoubleArray.fromArray(vals.stream().mapToDouble(Double::doubleValue).toArray());
        DoubleArray a = new DoubleArray(2L * states), b = new DoubleArray(2L * states);
        DoubleArray out = new DoubleArray(2);
        WorkerGrid grid = WorkerGrid.of((states + GROUP - 1) / GROUP * GROUP).withLocal(Math.min(GROUP, states));
        TaskGraph g = new TaskGraph("frontier")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, bitArray, valArray)
                .task("start", grid, FrontierKernels::start, new KernelContext(), a, states);
        DoubleArray prev = a, next = b;
        long updates = 0;
        for (int i = 0; i < n; i++) {
            g.task("row" + i, grid, FrontierKernels::row, new KernelContext(), prev, next, bitArray, valArray, offset[i], degree[i],
                    i == 0 ? 0 : closingAfter[i - 1], states);
            updates += (long) states * degree[i];
            DoubleArray t = prev;
            prev = next;
            next = t;
        }
        g.task("pick", WorkerGrid.of(1), FrontierKernels::pick, new KernelContext(), prev, out, closingAfter[n - 1])
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            try {
                p.execute();
            } finally {
                p.freeDeviceMemory();
            }
        }
        RAN_ON.add(device.id());
        double value = out.get(0), abs = out.get(1);
        long k = n + nonzeros;
        double u = 0x1p-53, gamma = k * u / (1 - k * u);
        double bound = gamma * abs / (1 - gamma);
        return new FrontierPermanent.Result(ScaledValue.of(value, exponent), ScaledValue.of(bound, exponent), ScaledValue.of(abs, exponent), updates);
    }
}
