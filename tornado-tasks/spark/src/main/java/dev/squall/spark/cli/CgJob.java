package dev.squall.spark.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code squall spark cg}: CG on the HPCG matrix, row blocks over Spark tasks. */
@Command(name = "cg", header = "Conjugate gradients on row blocks: a barrier stage, or the driver-driven baseline.", sortOptions = false,
        description = {"Solves A x = A 1 for the HPCG 27-point matrix on an NX x NY x NZ grid. The rows are cut into",
                "--blocks blocks, one barrier task each (a barrier stage needs that many slots), which run the whole CG",
                "with halo exchange over TCP. --baseline also runs the driver-driven CG (one job per iteration) and",
                "checks that its x is the same bit for bit. --verify solves in this JVM with sparse's Pcg and compares",
                "x to 1e-9 relative. Blocks run on their GPU (local mode: round-robin), else on --device (default jvm).", "",
                "Examples:",
                "  squall spark cg --hpcg 16:16:16 --blocks 2 --master local[2] --verify --baseline",
                "  squall spark cg --hpcg 32:32:32 --blocks 2 --master local-cluster[2,1,2048] --verify --json"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 1, precisions = {"fp64"})
public final class CgJob implements Callable<Integer> {
    @Mixin SparkOptions spark;
    @Option(names = "--hpcg", defaultValue = "16:16:16", paramLabel = "NX:NY:NZ", order = 10, description = "grid (default: ${DEFAULT-VALUE})") String grid;
    @Option(names = "--blocks", defaultValue = "2", order = 11, description = "row blocks (default: ${DEFAULT-VALUE})") int blocks;
    @Option(names = "--tol", defaultValue = "1e-10", order = 12, description = "relative residual (default: ${DEFAULT-VALUE})") double tol;
    @Option(names = "--max-iter", defaultValue = "1000", order = 13, description = "iteration limit (default: ${DEFAULT-VALUE})") int maxIter;
    @Option(names = "--baseline", order = 14, description = "also run the driver-driven CG (one job per iteration) and compare") boolean baseline;
    @Mixin RunOptions run;

    /**
     * {@code squall spark cg --json}: one object.
     *
     * @param command          {@code "spark cg"}
     * @param master           the Spark master
     * @param rows             rows of the matrix
     * @param blocks           row blocks (barrier tasks)
     * @param devices          the device of each block, in block order
     * @param iterations       barrier CG's iterations
     * @param relResidual      its final {@code |r| / |b|}
     * @param converged        whether it reached {@code --tol}
     * @param seconds          its wall time
     * @param baselineSeconds  the driver-driven CG's time ({@code --baseline}; else null)
     * @param baselineSame     whether the baseline's x equals the barrier CG's bit for bit (null without --baseline)
     * @param verified         whether {@code --verify} ran
     * @param relativeDifference {@code |x - x_pcg| / |x_pcg|} against sparse's Pcg in this JVM (null without --verify)
     * @param ok               false when CG did not converge or a check failed
     */
    public record Result(String command, String master, int rows, int blocks, java.util.List<String> devices, int iterations, double relResidual,
                         boolean converged, double seconds, Double baselineSeconds, Boolean baselineSame, boolean verified, Double relativeDifference,
                         boolean ok) {
    }

    int[] grid() {
        String[] p = grid.split(":");
        if (p.length != 3) throw new IllegalArgumentException("--hpcg wants NX:NY:NZ, got '" + grid + "'");
        int[] g = new int[3];
        for (int k = 0; k < 3; k++) {
            try {
                g[k] = Integer.parseInt(p[k].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--hpcg " + grid + ": '" + p[k] + "' is not a whole number");
            }
            if (g[k] < 1) throw new IllegalArgumentException("--hpcg " + grid + ": sizes must be >= 1");
        }
        return g;
    }

    @Override
    public Integer call() {
        SparkCommand.requireSpark();
        return SparkJobs.cg(this).ok() ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }
}
