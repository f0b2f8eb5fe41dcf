package dev.squall.spark.cli;

import dev.squall.cli.CommandFailure;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.permanent.GrayChunks;
import dev.squall.permanent.Method;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import dev.squall.spark.bench.SparkOverhead;
import dev.squall.spark.h2.DistributedH2;
import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.spark.permanent.DistributedPermanent;
import dev.squall.spark.sparse.DistributedCsr;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The Spark side of {@code squall spark}'s jobs: the only class of this package that touches Spark, loaded after
 * {@link SparkCommand#requireSpark()} found it. Prints text, or one JSON object per result with {@code --json}.
 */
final class SparkJobs {
    private SparkJobs() {
    }

    static TaskDevices devices(SparkOptions o, String deviceId) {
        return TaskDevices.fallingBackTo(deviceId == null ? "jvm" : deviceId).maxTasksPerGpu(o.tasksPerGpu).requireGpu(o.requireGpu).localGpus(o.localGpus);
    }

    static JavaSparkContext start(SparkOptions o, String app) {
        JavaSparkContext sc = SquallSpark.start(SquallSpark.conf(o.master(), app));
        sc.setLogLevel("WARN");
        return sc;
    }

    /**
     * Runs a Spark job, turning a failed job into the exit code of its cause: a task's device error is a device error
     * (exit 3), a task's bad setting (a GPU required but absent, an address its executor lacks) is bad input (exit 2).
     * Spark passes a task's exception to the driver as text, so the cause is read from the message where it is not
     * chained.
     */
    static <T> T job(Supplier<T> work) {
        try {
            return work.get();
        } catch (Exception e) { // Spark's checked SparkException, thrown from Scala undeclared
            if (!(e instanceof SparkException)) throw e;
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof DeviceException d) throw d;
            }
            String m = String.valueOf(e.getMessage());
            int at = m.indexOf("DeviceException: ");
            if (at >= 0) throw new CommandFailure(ExitCode.DEVICE_ERROR, "device error in a Spark task: " + firstLine(m.substring(at + 17)), e);
            at = m.indexOf("IllegalStateException: task of partition");
            if (at >= 0) throw new CommandFailure(ExitCode.BAD_INPUT, firstLine(m.substring(at + 23)), e);
            throw e;
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    static List<PermanentJob.Result> permanent(PermanentJob j) throws Exception {
        SquareMatrix a = j.input.random != null ? RandomSquareMatrices.parse(j.input.random) : SquareMatrix.read(j.input.file);
        Method m = Method.parse(j.method);
        List<PermanentJob.Result> out = new ArrayList<>();
        try (JavaSparkContext sc = start(j.spark, "squall-spark-permanent")) {
            DistributedPermanent job = new DistributedPermanent(sc).method(m).devices(devices(j.spark, j.run.deviceId()));
            if (j.chunksPerSlot != null) job.chunksPerSlot(j.chunksPerSlot);
            if (j.slots != null) job.slots(j.slots);
            for (int k = 1; k <= j.run.repeat(); k++) {
                DistributedPermanent.Result r = job(() -> job.compute(a));
                Map<String, Integer> perDevice = new TreeMap<>();
                for (String d : r.devices()) perDevice.merge(d, 1, Integer::sum);
                Double value = r.value().outsideDoubleRange() ? null : r.value().toDouble();
                PermanentJob.Result res = new PermanentJob.Result("spark permanent", j.spark.master(), a.n(), m.cliName(), k, value, r.value().toText(),
                        r.sweepValue(), r.exponent(), r.chunks(), r.chunkSteps(), perDevice, r.seconds(), false, true, null, null, null, null);
                if (j.run.verify() && k == j.run.repeat()) res = verify(a, m, r, res);
                out.add(res);
                if (j.run.json()) {
                    JsonOutput.print(System.out, res);
                } else {
                    System.out.printf(Locale.ROOT, "permanent %s (n = %d, run %d)%n  %d chunks of %d steps on %s, %.3f s (master %s)%n",
                            res.valueText(), a.n(), k, r.chunks(), r.chunkSteps(), perDevice, r.seconds(), j.spark.master());
                    if (res.verified()) {
                        System.out.printf(Locale.ROOT, "  verify: %.17g in %.3f s in this JVM, relative difference %.2e: %s; Spark job / single process = %.3f%n",
                                res.reference(), res.singleSeconds(), res.relativeError(), res.ok() ? "ok" : "FAILED", res.ratio());
                    }
                }
            }
        }
        return out;
    }

    /**
     * On the JVM: ChunkedJvmPermanent in this JVM, bit for bit. On a device: the same sweep as one piece on the device
     * of the first chunk (the single-process run), to 1e-10, with the time ratio the 10% target is about.
     */
    private static PermanentJob.Result verify(SquareMatrix a, Method m, DistributedPermanent.Result r, PermanentJob.Result res) {
        SquareMatrix scaled = RowScaling.of(a).scaled();
        boolean onJvm = r.devices().stream().allMatch("jvm"::equals);
        long t0 = System.nanoTime();
        double local;
        if (onJvm) {
            int threads = Runtime.getRuntime().availableProcessors();
            local = m == Method.SPARSE ? new ChunkedJvmPermanent(threads).sparse(scaled) : new ChunkedJvmPermanent(threads).dense(scaled);
        } else {
            Device d = Devices.get(r.devices().get(0));
            double[] whole = new GrayChunks(d, m).partials(scaled, 0, NijenhuisWilf.steps(a.n()));
            local = NijenhuisWilf.finalFactor(a.n()) * (whole[0] + whole[1]);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double rel = Math.abs(local - r.sweepValue()) / Math.max(Math.abs(local), Double.MIN_NORMAL);
        boolean ok = onJvm ? Double.compare(local, r.sweepValue()) == 0 : rel <= 1e-10;
        return new PermanentJob.Result(res.command(), res.master(), res.n(), res.method(), res.run(), res.value(), res.valueText(), res.sweepValue(),
                res.exponent(), res.chunks(), res.chunkSteps(), res.ranOn(), res.seconds(), true, ok, local, rel, secs, r.seconds() / secs);
    }

    static CgJob.Result cg(CgJob j) {
        int[] g = j.grid();
        if (j.blocks < 1) throw new IllegalArgumentException("--blocks must be >= 1, got " + j.blocks);
        CsrMatrix a = Stencils.hpcg(g[0], g[1], g[2]);
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        double[] b = multiply(a, ones);
        CgJob.Result res;
        try (JavaSparkContext sc = start(j.spark, "squall-spark-cg"); DistributedCsr d = DistributedCsr.of(sc, a, j.blocks, devices(j.spark, j.run.deviceId()))) {
            DistributedCsr.CgResult r = job(() -> d.cgBarrier(b, j.tol, j.maxIter));
            boolean ok = r.converged();
            Double baseSeconds = null;
            Boolean same = null;
            if (j.baseline) {
                DistributedCsr.CgResult s = job(() -> d.cgDriver(b, j.tol, j.maxIter));
                baseSeconds = s.seconds();
                same = Arrays.equals(r.x(), s.x());
                ok &= same;
            }
            Double diff = null;
            if (j.run.verify()) {
                try (Pcg cg = Pcg.create(a, null, Precision.FP64, Devices.jvm(), null)) {
                    diff = relDiff(cg.solve(b, j.tol, j.maxIter, null).x(), r.x());
                    ok &= diff <= 1e-9;
                }
            }
            res = new CgJob.Result("spark cg", j.spark.master(), a.rows(), j.blocks, r.devices(), r.iterations(), r.relResidual(), r.converged(),
                    r.seconds(), baseSeconds, same, j.run.verify(), diff, ok);
        }
        if (j.run.json()) {
            JsonOutput.print(System.out, res);
        } else {
            System.out.printf(Locale.ROOT, "barrier CG: %d rows in %d blocks on %s: %d iterations, |r|/|b| %.2e, %.3f s (master %s)%n",
                    res.rows(), res.blocks(), res.devices(), res.iterations(), res.relResidual(), res.seconds(), res.master());
            if (res.baselineSeconds() != null) {
                System.out.printf(Locale.ROOT, "driver CG:  %.3f s: x %s%n", res.baselineSeconds(), res.baselineSame() ? "equal bit for bit" : "DIFFERS");
            }
            if (res.relativeDifference() != null) {
                System.out.printf(Locale.ROOT, "verify: Pcg in this JVM, relative difference of x %.2e: %s%n", res.relativeDifference(),
                        res.relativeDifference() <= 1e-9 ? "ok" : "FAILED");
            }
        }
        return res;
    }

    static H2Job.Result h2(H2Job j) {
        if (!j.points.equals("2d") && !j.points.equals("3d")) throw new IllegalArgumentException("--points must be 2d or 3d, got '" + j.points + "'");
        if (j.n < 1) throw new IllegalArgumentException("--n must be >= 1, got " + j.n);
        if (j.tasks < 1 || Integer.bitCount(j.tasks) != 1) throw new IllegalArgumentException("--tasks must be a power of two (one subtree each), got " + j.tasks);
        if (j.sample < 0) throw new IllegalArgumentException("--sample must be >= 0, got " + j.sample);
        H2Options.Admissibility adm = switch (j.admissibility) {
            case "box" -> H2Options.Admissibility.BOX_DISTANCE;
            case "center" -> H2Options.Admissibility.BOX_CENTER;
            default -> throw new IllegalArgumentException("--admissibility must be box or center, got '" + j.admissibility + "'");
        };
        CovarianceKernel kernel = CovarianceKernel.parse(j.kernel);
        H2Options options = H2Options.defaults().withOrder(j.order).withLeafSize(j.leaf).withEta(j.eta).withAdmissibility(adm);
        int dim = j.points.equals("2d") ? 2 : 3;
        PointCloud pts = PointCloud.perturbedGrid(j.n, dim, j.seed);
        double[] x = new SplittableRandom(j.seed + 1).doubles(j.n, -1, 1).toArray();
        int level = Integer.numberOfTrailingZeros(j.tasks);
        H2Job.Result res;
        long t0 = System.nanoTime();
        try (JavaSparkContext sc = start(j.spark, "squall-spark-h2")) {
            SparkOverhead.emptyJobMillis(sc, 1);
            double context = (System.nanoTime() - t0) / 1e9;
            double[] empty = new double[5];
            for (int r = 0; r < empty.length; r++) empty[r] = SparkOverhead.emptyJobMillis(sc, j.tasks);
            double[] y;
            List<DistributedH2.Product> later = new ArrayList<>();
            DistributedH2.Product first;
            int depth, rank;
            long halo;
            double cut;
            DistributedH2 built;
            try {
                built = DistributedH2.build(sc, pts, kernel, options, level, devices(j.spark, j.run.deviceId()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--tasks " + j.tasks + ": " + e.getMessage(), e);
            }
            try (DistributedH2 a = built) {
                cut = a.buildSeconds();
                depth = a.structure().depth();
                rank = a.structure().rank();
                halo = a.haloValues();
                first = job(() -> a.multiply(x));
                for (int r = 1; r < j.run.repeat(); r++) later.add(job(() -> a.multiply(x)));
            }
            List<DistributedH2.Product> timed = later.isEmpty() ? List.of(first) : later;
            y = timed.get(timed.size() - 1).y();
            double product = median(timed.stream().mapToDouble(DistributedH2.Product::seconds).toArray());
            Double singleBuild = null, single = null, ratio = null, diff = null, sampleErr = null;
            boolean ok = true;
            if (j.run.verify()) {
                // after the distributed matrix is freed: both at once may not fit one GPU
                Device d = Devices.get(first.devices().get(0));
                long b0 = System.nanoTime();
                try (H2Matrix m = H2Matrix.build(pts, kernel, options.withDevice(d))) {
                    singleBuild = (System.nanoTime() - b0) / 1e9;
                    double[] ys = null;
                    double[] secs = new double[Math.max(2, j.run.repeat())];
                    for (int r = 0; r < secs.length; r++) {
                        long s0 = System.nanoTime();
                        ys = m.multiply(x);
                        secs[r] = (System.nanoTime() - s0) / 1e9;
                    }
                    single = median(Arrays.copyOfRange(secs, 1, secs.length)); // the first builds the product's plans
                    diff = relDiff(ys, y);
                    ratio = product / single;
                    ok = diff <= 1e-12;
                }
                if (j.sample > 0) {
                    sampleErr = sampleError(pts, kernel, x, y, j.sample);
                    ok &= sampleErr <= j.tolerance;
                }
            }
            res = new H2Job.Result("spark h2", j.spark.master(), j.n, dim, rank, j.tasks, level, depth, first.devices(), context, median(empty), cut,
                    first.seconds(), product, median(timed.stream().mapToDouble(DistributedH2.Product::upsweepSeconds).toArray()),
                    median(timed.stream().mapToDouble(DistributedH2.Product::topSeconds).toArray()),
                    median(timed.stream().mapToDouble(DistributedH2.Product::rowsSeconds).toArray()), halo, j.run.verify(), singleBuild, single, ratio,
                    diff, sampleErr, ok);
        }
        if (j.run.json()) {
            JsonOutput.print(System.out, res);
        } else {
            System.out.printf(Locale.ROOT, "H2 y = A x: %d points (%dD, rank %d, depth %d) in %d subtrees (level %d) on %s (master %s)%n",
                    res.n(), res.dim(), res.rank(), res.depth(), res.tasks(), res.level(), res.devices(), res.master());
            System.out.printf(Locale.ROOT, "  context %.2f s, empty job of %d tasks %.1f ms, cut %.2f s, first product %.3f s, then %.4f s"
                    + " (upsweep job %.4f s, top %.4f s, rows job %.4f s), %d halo values%n", res.contextSeconds(), res.tasks(), res.emptyJobMs(),
                    res.cutSeconds(), res.firstSeconds(), res.productSeconds(), res.upsweepSeconds(), res.topSeconds(), res.rowsSeconds(), res.haloValues());
            if (res.verified()) {
                System.out.printf(Locale.ROOT, "  verify: single process built in %.2f s, product %.4f s (Spark / single = %.2f), relative difference %.2e: %s%n",
                        res.singleBuildSeconds(), res.singleSeconds(), res.ratio(), res.relativeDifference(), res.relativeDifference() <= 1e-12 ? "ok" : "FAILED");
                if (res.sampleError() != null) {
                    System.out.printf(Locale.ROOT, "  %d rows against the exact kernel sum: relative error %.2e: %s%n", j.sample, res.sampleError(),
                            res.sampleError() <= j.tolerance ? "ok" : "FAILED");
                }
            }
        }
        return res;
    }

    /** Relative error of {@code count} evenly spaced rows of {@code y} against the exact kernel sum. */
    static double sampleError(PointCloud p, CovarianceKernel k, double[] x, double[] y, int count) {
        int n = p.size(), c = Math.min(count, n);
        double num = 0, den = 0;
        for (int s = 0; s < c; s++) {
            int i = (int) ((long) s * n / c);
            double e = 0;
            for (int j = 0; j < n; j++) e += k.evaluate(p, i, p, j) * x[j];
            num += (y[i] - e) * (y[i] - e);
            den += e * e;
        }
        return Math.sqrt(num / Math.max(den, Double.MIN_NORMAL));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
    }

    static OverheadJob.Result overhead(OverheadJob j) {
        if (j.tasks < 2) throw new IllegalArgumentException("--tasks must be >= 2 (a job of 1 task against a job of --tasks), got " + j.tasks);
        if (j.scalingN != 0 && (j.scalingN < 2 || j.scalingN > 40)) throw new IllegalArgumentException("--scaling-n must be 0 or in [2, 40], got " + j.scalingN);
        long t0 = System.nanoTime();
        OverheadJob.Result res;
        try (JavaSparkContext sc = start(j.spark, "squall-spark-overhead")) {
            SparkOverhead.emptyJobMillis(sc, 1);
            double startup = (System.nanoTime() - t0) / 1e9;
            SparkOverhead.Overhead o = SparkOverhead.measure(sc, j.spark.master(), startup, j.tasks, j.run.repeat());
            SparkOverhead.ChunkScaling s = j.scalingN == 0 ? null
                    : job(() -> SparkOverhead.chunkScaling(sc, j.scalingN, Method.DENSE, devices(j.spark, j.run.deviceId()), j.maxChunksPerSlot, j.run.repeat()));
            res = new OverheadJob.Result("spark overhead", o, s);
        }
        if (j.run.json()) {
            JsonOutput.print(System.out, res);
        } else {
            System.out.println(res.overhead().toText());
            if (res.scaling() != null) System.out.println(res.scaling().toText());
        }
        return res;
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
