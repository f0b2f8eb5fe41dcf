package dev.squall.spark.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code squall spark h2}: H2 matrix-vector products with one Spark task per subtree. */
@Command(name = "h2", header = "H2 covariance matrix-vector products, one Spark task per subtree.", sortOptions = false,
        description = {"Builds the H2 matrix of --kernel over --n points (2d or 3d perturbed grid) as hmatrix does,",
                "cuts its cluster tree so that each of --tasks tasks (a power of two) owns a subtree (its rows, bases,",
                "couplings and dense blocks, computed and kept on its device), keeps the top of the tree on the driver,",
                "and computes y = A x in two jobs (subtree upsweeps; then the top, the halo xhat and x routed by the",
                "driver, and each task's rows). --repeat products; the first builds the parts on the devices.",
                "--verify then builds the single-process H2Matrix on the first task's device and compares y to",
                "1e-12 relative (and the time: Spark / single process), and --sample rows with the exact kernel sum",
                "to --tolerance. Tasks run on their GPU (local mode: round-robin), else on --device (default jvm).", "",
                "Examples:",
                "  squall spark h2 --points 2d --n 16384 --tasks 4 --master local[2] --verify --no-local-gpus",
                "  squall spark h2 --points 3d --n 1048576 --order 4 --admissibility center --tasks 8 --master local[8] --require-gpu --repeat 5 --verify --json"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 3, precisions = {"fp64"})
public final class H2Job implements Callable<Integer> {
    @Mixin SparkOptions spark;
    @Option(names = "--points", paramLabel = "2d|3d", defaultValue = "2d", order = 10, description = "perturbed grid in 2 or 3 dimensions (default: ${DEFAULT-VALUE})") String points;
    @Option(names = "--n", defaultValue = "16384", order = 11, description = "number of points (default: ${DEFAULT-VALUE})") int n;
    @Option(names = "--tasks", defaultValue = "4", order = 12, description = "tasks, one subtree each: a power of two, at most the tree's leaves (default: ${DEFAULT-VALUE})") int tasks;
    @Option(names = "--kernel", paramLabel = "NAME:L", defaultValue = "exp:0.1", order = 13, description = "covariance kernel (default: ${DEFAULT-VALUE})") String kernel;
    @Option(names = "--order", defaultValue = "8", order = 14, description = "Chebyshev order per dimension (default: ${DEFAULT-VALUE})") int order;
    @Option(names = "--leaf", defaultValue = "64", order = 15, description = "leaf size (default: ${DEFAULT-VALUE})") int leaf;
    @Option(names = "--eta", defaultValue = "1.0", order = 16, description = "admissibility parameter (default: ${DEFAULT-VALUE})") double eta;
    @Option(names = "--admissibility", paramLabel = "box|center", defaultValue = "box", order = 17, description = "box distance or box center (default: ${DEFAULT-VALUE})") String admissibility;
    @Option(names = "--seed", defaultValue = "1", order = 18, description = "seed of the points and x (default: ${DEFAULT-VALUE})") long seed;
    @Option(names = "--sample", defaultValue = "200", order = 19, description = "rows --verify checks against the exact kernel sum; 0: none (default: ${DEFAULT-VALUE})") int sample;
    @Option(names = "--tolerance", defaultValue = "1e-6", order = 20, description = "largest relative error of the sampled rows (default: ${DEFAULT-VALUE})") double tolerance;
    @Mixin RunOptions run;

    /**
     * {@code squall spark h2 --json}: one object.
     *
     * @param command            {@code "spark h2"}
     * @param master             the Spark master
     * @param n                  points
     * @param dim                their dimension
     * @param rank               Chebyshev rank {@code order^dim}
     * @param tasks              tasks (subtrees) per job
     * @param level              the tree level of the cut
     * @param depth              the tree's depth
     * @param devices            each task's device, in part order
     * @param contextSeconds     start-up: the Spark context and a first one-task job
     * @param emptyJobMs         a job of {@code tasks} empty tasks (median of 5): Spark's part of each of a product's two jobs
     * @param cutSeconds         the driver's cut: tree, traversal, parts, top, the parts' broadcast
     * @param firstSeconds       the first product (the tasks build their parts on their devices)
     * @param productSeconds     the median of the later products (all of them when {@code --repeat 1})
     * @param upsweepSeconds     its first job (median)
     * @param topSeconds         the driver's top and halo routing (median)
     * @param rowsSeconds        its second job (median)
     * @param haloValues         values routed per product (halo xhat and x)
     * @param verified           whether {@code --verify} ran
     * @param singleBuildSeconds single-process H2Matrix build on the first task's device (null without --verify)
     * @param singleSeconds      its product, median of {@code --repeat} (host to host; null without --verify)
     * @param ratio              {@code productSeconds / singleSeconds} (null without --verify)
     * @param relativeDifference {@code |y - y_single| / |y_single|} (null without --verify)
     * @param sampleError        relative error of {@code --sample} rows against the exact kernel sum (null without it)
     * @param ok                 false when a check failed
     */
    public record Result(String command, String master, int n, int dim, int rank, int tasks, int level, int depth, List<String> devices,
                         double contextSeconds, double emptyJobMs, double cutSeconds, double firstSeconds, double productSeconds,
                         double upsweepSeconds, double topSeconds, double rowsSeconds, long haloValues, boolean verified,
                         Double singleBuildSeconds, Double singleSeconds, Double ratio, Double relativeDifference, Double sampleError, boolean ok) {
    }

    @Override
    public Integer call() {
        SparkCommand.requireSpark();
        return SparkJobs.h2(this).ok() ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }
}
