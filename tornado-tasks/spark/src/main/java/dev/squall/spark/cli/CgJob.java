package dev.squall.spark.cli;

import dev.squall.spark.sparse.DistributedCsr;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code squall spark cg}: CG on the HPCG matrix, row blocks over Spark tasks. */
@Command(name = "cg", mixinStandardHelpOptions = true, header = "Conjugate gradients on row blocks: a barrier stage, or the driver-driven baseline.",
        description = {"Solves A x = A 1 for the HPCG 27-point matrix on an NX x NY x NZ grid. The rows are cut",
                "into --blocks blocks (one barrier task each; a barrier stage needs that many slots).",
                "--verify solves in this JVM with sparse's Pcg and compares x to 1e-9 relative.", "",
                "  squall spark cg --hpcg 16:16:16 --blocks 2 --master local[2] --verify --baseline"})
final class CgJob implements Callable<Integer> {
    @Mixin SparkOptions spark;
    @Option(names = "--hpcg", defaultValue = "16:16:16", paramLabel = "NX:NY:NZ", description = "Grid (default: ${DEFAULT-VALUE})") String grid;
    @Option(names = "--blocks", defaultValue = "2", description = "Row blocks (default: ${DEFAULT-VALUE})") int blocks;
    @Option(names = "--tol", defaultValue = "1e-10", description = "Relative residual (default: ${DEFAULT-VALUE})") double tol;
    @Option(names = "--max-iter", defaultValue = "1000", description = "Iteration limit (default: ${DEFAULT-VALUE})") int maxIter;
    @Option(names = "--baseline", description = "Also run the driver-driven CG (one job per iteration) and compare") boolean baseline;
    @Option(names = "--verify", description = "Solve in this JVM with sparse's Pcg and compare") boolean verify;

    @Override
    public Integer call() {
        int[] g = Arrays.stream(grid.split(":")).mapToInt(Integer::parseInt).toArray();
        if (g.length != 3) throw new IllegalArgumentException("--hpcg wants NX:NY:NZ, got " + grid);
        CsrMatrix a = Stencils.hpcg(g[0], g[1], g[2]);
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        double[] b = multiply(a, ones);
        boolean ok = true;
        try (JavaSparkContext sc = spark.start("squall-cg"); DistributedCsr d = DistributedCsr.of(sc, a, blocks, spark.devices())) {
            DistributedCsr.CgResult r = d.cgBarrier(b, tol, maxIter);
            System.out.printf(Locale.ROOT, "barrier CG: %d rows in %d blocks on %s: %d iterations, |r|/|b| %.2e, %.3f s (master %s)%n",
                    a.rows(), blocks, r.devices(), r.iterations(), r.relResidual(), r.seconds(), spark.master());
            ok &= r.converged();
            if (baseline) {
                DistributedCsr.CgResult s = d.cgDriver(b, tol, maxIter);
                boolean same = Arrays.equals(r.x(), s.x());
                System.out.printf(Locale.ROOT, "driver CG:  %d iterations, %.3f s (%.1f ms per iteration against %.1f): x %s%n", s.iterations(),
                        s.seconds(), 1e3 * s.seconds() / Math.max(1, s.iterations()), 1e3 * r.seconds() / Math.max(1, r.iterations()),
                        same ? "equal bit for bit" : "DIFFERS");
                ok &= same;
            }
            if (verify) {
                try (Pcg cg = Pcg.create(a, null, Precision.FP64, Devices.jvm(), null)) {
                    Pcg.Result p = cg.solve(b, tol, maxIter, null);
                    double diff = relDiff(p.x(), r.x());
                    boolean good = diff <= 1e-9;
                    System.out.printf(Locale.ROOT, "verify: Pcg in this JVM %d iterations, relative difference of x %.2e: %s%n",
                            p.iterations(), diff, good ? "ok" : "FAILED");
                    ok &= good;
                }
            }
        }
        return ok ? 0 : SparkCommand.VERIFY_FAILED;
    }

    static double[] multiply(CsrMatrix a, double[] x) {
        double[] y = new double[a.rows()];
        for (int i = 0; i < a.rows(); i++) {
            double s = 0;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) s += a.value(k) * x[a.colIndex(k)];
            y[i] = s;
        }
        return y;
    }

    static double relDiff(double[] a, double[] b) {
        double num = 0, den = 0;
        for (int i = 0; i < a.length; i++) {
            num += (a[i] - b[i]) * (a[i] - b[i]);
            den += a[i] * a[i];
        }
        return Math.sqrt(num / Math.max(den, Double.MIN_NORMAL));
    }
}
