package dev.squall.spark.bench;

import dev.squall.spark.SquallSpark;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Measures what Spark adds to a Squall job: the start-up (a context and its first job) and, from jobs of empty tasks,
 * the fixed cost of a job and the cost of each further task. The scaling model of a distributed permanent is then
 * {@code T(tasks) = startup + job + tasks / slots * perTask + work / devices}.
 *
 * <pre>{@code
 * SparkOverhead.Overhead o = SparkOverhead.measure("local[2]", 64, 5);
 * System.out.println(o.startupSeconds() + " s to start, " + o.perTaskMillis() + " ms per task");
 * }</pre>
 */
public final class SparkOverhead {
    /**
     * @param master         the Spark master measured
     * @param slots          its default parallelism
     * @param startupSeconds context creation plus a first one-task job
     * @param jobMillis      median of a one-task job
     * @param manyMillis     median of a job of {@code tasks} empty tasks
     * @param tasks          tasks in the larger job
     * @param perTaskMillis  {@code (manyMillis - jobMillis) / (tasks - 1)}: wall time each further task adds
     */
    public record Overhead(String master, int slots, double startupSeconds, double jobMillis, double manyMillis, int tasks, double perTaskMillis) {
        public String toText() {
            return String.format(java.util.Locale.ROOT, "master %s (%d slots): start-up %.2f s, one-task job %.1f ms, %d-task job %.1f ms, "
                    + "%.2f ms per further task", master, slots, startupSeconds, jobMillis, tasks, manyMillis, perTaskMillis);
        }
    }

    private SparkOverhead() {
    }

    /** Starts a context on {@code master}, measures, stops it. */
    public static Overhead measure(String master, int tasks, int repeat) {
        if (tasks < 2) throw new IllegalArgumentException("tasks must be >= 2 to separate per-task from per-job cost, got " + tasks);
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        long t0 = System.nanoTime();
        try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf(master, "squall-spark-overhead"))) {
            emptyJob(sc, 1);
            double startup = (System.nanoTime() - t0) / 1e9;
            return measure(sc, master, startup, tasks, repeat);
        }
    }

    /** Measures on a running context ({@code startupSeconds} as measured by the caller). */
    public static Overhead measure(JavaSparkContext sc, String master, double startupSeconds, int tasks, int repeat) {
        emptyJob(sc, tasks); // warm-up: executors' class loading, task serialisation
        double[] one = new double[repeat], many = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            one[r] = emptyJob(sc, 1);
            many[r] = emptyJob(sc, tasks);
        }
        double job = median(one), all = median(many);
        return new Overhead(master, sc.defaultParallelism(), startupSeconds, job, all, tasks, (all - job) / (tasks - 1));
    }

    /** Milliseconds of a job of {@code tasks} tasks that each return their number. */
    static double emptyJob(JavaSparkContext sc, int tasks) {
        List<Integer> ids = new ArrayList<>();
        for (int k = 0; k < tasks; k++) ids.add(k);
        long t0 = System.nanoTime();
        List<Integer> back = sc.parallelize(ids, tasks).map(k -> k).collect();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!back.equals(ids)) throw new IllegalStateException("empty job returned " + back + " instead of " + ids);
        return ms;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** {@code SparkOverhead [master] [tasks] [repeat]}: prints the measurement. */
    public static void main(String[] args) {
        String master = args.length > 0 ? args[0] : "local[2]";
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int repeat = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        System.out.println(measure(master, tasks, repeat).toText());
    }
}
