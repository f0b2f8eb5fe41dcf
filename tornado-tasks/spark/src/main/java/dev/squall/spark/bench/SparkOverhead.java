package dev.squall.spark.bench;

import dev.squall.permanent.Method;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import dev.squall.spark.permanent.DistributedPermanent;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures what Spark adds to a Squall job: the start-up (a context and its first job); from jobs of empty tasks, the
 * fixed cost of a job and the cost of each further task; and chunk scaling, one permanent cut into more and more
 * chunks, whose time grows by {@code t_task + t_chunk} per chunk and slot. The scaling model of a distributed permanent
 * is then {@code T = t_job + c (t_task + t_chunk) + W / slots} for {@code c} chunks per slot (README).
 *
 * <pre>{@code
 * SparkOverhead.Overhead o = SparkOverhead.measure("local[2]", 64, 5);
 * System.out.println(o.startupSeconds() + " s to start, " + o.perTaskMs() + " ms per task");
 * }</pre>
 */
public final class SparkOverhead {
    /**
     * @param master         the Spark master measured
     * @param slots          its default parallelism
     * @param startupSeconds context creation plus a first one-task job
     * @param jobMs          median of a one-task job
     * @param manyMs         median of a job of {@code tasks} empty tasks
     * @param tasks          tasks in the larger job
     * @param perTaskMs      {@code (manyMs - jobMs) / (tasks - 1)}: wall time each further task adds
     */
    public record Overhead(String master, int slots, double startupSeconds, double jobMs, double manyMs, int tasks, double perTaskMs) {
        public String toText() {
            return String.format(Locale.ROOT, "master %s (%d slots): start-up %.2f s, one-task job %.1f ms, %d-task job %.1f ms, "
                    + "%.2f ms per further task", master, slots, startupSeconds, jobMs, tasks, manyMs, perTaskMs);
        }
    }

    /**
     * One point of the chunk scaling.
     *
     * @param chunksPerSlot chunks per task slot
     * @param chunks        tasks of the job
     * @param chunkSteps    Gray-code steps per chunk
     * @param seconds       median wall time of the job
     */
    public record ChunkPoint(int chunksPerSlot, int chunks, long chunkSteps, double seconds) {
    }

    /**
     * The same permanent at growing chunk counts, and the least-squares line {@code seconds = fixed + perChunk * c}.
     *
     * @param n              the matrix order (random, density 0.5, seed 1)
     * @param device         the device the chunks ran on (the first chunk's)
     * @param slots          task slots the job was sized for
     * @param points         the measurements, by chunks per slot
     * @param fixedSeconds   the line's intercept: the job's fixed cost plus the sweep {@code W / slots}
     * @param perChunkMs     the line's slope: what one more chunk per slot costs ({@code t_task + t_chunk})
     */
    public record ChunkScaling(int n, String device, int slots, List<ChunkPoint> points, double fixedSeconds, double perChunkMs) {
        public String toText() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "chunk scaling: permanent n = %d on %s, %d slots:", n, device, slots));
            for (ChunkPoint p : points) s.append(String.format(Locale.ROOT, " %d/slot %.3f s;", p.chunksPerSlot(), p.seconds()));
            return s.append(String.format(Locale.ROOT, " fit %.3f s + %.2f ms per chunk and slot", fixedSeconds, perChunkMs)).toString();
        }
    }

    private SparkOverhead() {
    }

    /** Starts a context on {@code master}, measures the empty-task costs, stops it. */
    public static Overhead measure(String master, int tasks, int repeat) {
        checkCounts(tasks, repeat);
        long t0 = System.nanoTime();
        try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf(master, "squall-spark-overhead"))) {
            emptyJobMillis(sc, 1);
            double startup = (System.nanoTime() - t0) / 1e9;
            return measure(sc, master, startup, tasks, repeat);
        }
    }

    /** Measures on a running context ({@code startupSeconds} as measured by the caller). */
    public static Overhead measure(JavaSparkContext sc, String master, double startupSeconds, int tasks, int repeat) {
        checkCounts(tasks, repeat);
        emptyJobMillis(sc, tasks); // warm-up: executors' class loading, task serialisation
        double[] one = new double[repeat], many = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            one[r] = emptyJobMillis(sc, 1);
            many[r] = emptyJobMillis(sc, tasks);
        }
        double job = median(one), all = median(many);
        return new Overhead(master, sc.defaultParallelism(), startupSeconds, job, all, tasks, (all - job) / (tasks - 1));
    }

    /**
     * Times one random permanent of order {@code n} (density 0.5, seed 1) cut into {@code slots x c} chunks for
     * {@code c = 1, 2, 4, ..., maxChunksPerSlot} (median of {@code repeat} runs each, after an unmeasured one).
     */
    public static ChunkScaling chunkScaling(JavaSparkContext sc, int n, Method method, TaskDevices devices, int maxChunksPerSlot, int repeat) {
        if (n < 2 || n > 40) throw new IllegalArgumentException("the chunk-scaling order must be in [2, 40], got " + n);
        if (maxChunksPerSlot < 1) throw new IllegalArgumentException("max chunks per slot must be >= 1, got " + maxChunksPerSlot);
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(n, 0.5, 1);
        int slots = sc.defaultParallelism();
        List<ChunkPoint> points = new ArrayList<>();
        String device = null;
        new DistributedPermanent(sc).method(method).devices(devices).chunksPerSlot(1).compute(a); // kernels, executors warm
        for (int c = 1; c <= maxChunksPerSlot; c *= 2) {
            double[] t = new double[repeat];
            DistributedPermanent.Result r = null;
            // one unmeasured run per chunk count: executors JIT-compile and load each chunk size's code on first use
            new DistributedPermanent(sc).method(method).devices(devices).chunksPerSlot(c).compute(a);
            for (int k = 0; k < repeat; k++) {
                r = new DistributedPermanent(sc).method(method).devices(devices).chunksPerSlot(c).compute(a);
                t[k] = r.seconds();
            }
            device = r.devices().get(0);
            points.add(new ChunkPoint(c, r.chunks(), r.chunkSteps(), median(t)));
        }
        double[] fit = line(points);
        return new ChunkScaling(n, device, slots, points, fit[0], 1e3 * fit[1]);
    }

    /** Least-squares intercept and slope of seconds against chunks per slot. */
    static double[] line(List<ChunkPoint> points) {
        int m = points.size();
        if (m < 2) return new double[] {points.get(0).seconds(), Double.NaN};
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (ChunkPoint p : points) {
            sx += p.chunksPerSlot();
            sy += p.seconds();
            sxx += (double) p.chunksPerSlot() * p.chunksPerSlot();
            sxy += p.chunksPerSlot() * p.seconds();
        }
        double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        return new double[] {(sy - slope * sx) / m, slope};
    }

    /** Milliseconds of a job of {@code tasks} tasks that each return their number. */
    public static double emptyJobMillis(JavaSparkContext sc, int tasks) {
        List<Integer> ids = new ArrayList<>();
        for (int k = 0; k < tasks; k++) ids.add(k);
        long t0 = System.nanoTime();
        List<Integer> back = sc.parallelize(ids, tasks).map(k -> k).collect();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!back.equals(ids)) throw new IllegalStateException("empty job returned " + back + " instead of " + ids);
        return ms;
    }

    private static void checkCounts(int tasks, int repeat) {
        if (tasks < 2) throw new IllegalArgumentException("tasks must be >= 2 to separate per-task from per-job cost, got " + tasks);
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
