package dev.squall.spark.cli;

import dev.squall.permanent.Method;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.MatrixMarketReader;
import dev.squall.permanent.matrix.RandomMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.spark.permanent.DistributedPermanent;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code squall spark permanent}: a permanent as a Spark job of Gray-code chunks. */
@Command(name = "permanent", mixinStandardHelpOptions = true, header = "Matrix permanent, one Spark task per chunk of Gray-code steps.",
        description = {"The 2^(n-1) Gray-code steps of Ryser's formula (rows scaled by powers of two)",
                "are cut into power-of-two chunks, slots x chunks-per-slot of them; the driver adds",
                "the chunks' partial sums in chunk order, so the value does not depend on scheduling.",
                "--verify recomputes it in this JVM (ChunkedJvmPermanent): on the JVM the values must",
                "agree bit for bit, on devices to 1e-10 relative.", "",
                "  squall spark permanent --random 24:0.5 --master local[2] --verify"})
final class PermanentJob implements Callable<Integer> {
    static final class Input {
        @Option(names = "--random", paramLabel = "N:P[:SEED]", description = "Random N x N matrix of density P") String random;
        @Option(names = "--matrix", paramLabel = "FILE", description = "Matrix Market file") Path file;
    }

    @ArgGroup(multiplicity = "1") Input input;
    @Mixin SparkOptions spark;
    @Option(names = "--method", defaultValue = "dense", description = "dense, sparse, codegen-hybrid or codegen-reg (default: ${DEFAULT-VALUE})") String method;
    @Option(names = "--chunks-per-slot", defaultValue = "4", description = "Chunks per task slot (default: ${DEFAULT-VALUE})") int chunksPerSlot;
    @Option(names = "--slots", description = "Task slots to size the job for (default: the context's parallelism; on a GPU cluster: its GPUs)") Integer slots;
    @Option(names = "--verify", description = "Recompute in this JVM and compare") boolean verify;

    @Override
    public Integer call() throws Exception {
        SquareMatrix a = input.random != null ? RandomMatrices.parse(input.random) : MatrixMarketReader.read(input.file);
        Method m = Method.parse(method);
        try (JavaSparkContext sc = spark.start("squall-permanent")) {
            sc.setLogLevel("WARN");
            DistributedPermanent job = new DistributedPermanent(sc).method(m).chunksPerSlot(chunksPerSlot).devices(spark.devices());
            if (slots != null) job.slots(slots);
            DistributedPermanent.Result r = job.compute(a);
            TreeMap<String, Integer> perDevice = new TreeMap<>();
            for (String d : r.devices()) perDevice.merge(d, 1, Integer::sum);
            System.out.printf(Locale.ROOT, "permanent %s (n = %d)%n  %d chunks of %d steps on %s, %.3f s (master %s)%n",
                    r.value().toText(), a.n(), r.chunks(), r.chunkSteps(), perDevice, r.seconds(), spark.master());
            if (!verify) return 0;
            long t0 = System.nanoTime();
            double local = new ChunkedJvmPermanent(Runtime.getRuntime().availableProcessors()).dense(RowScaling.of(a).scaled());
            double secs = (System.nanoTime() - t0) / 1e9;
            boolean onJvm = r.devices().stream().allMatch("jvm"::equals) && m == Method.DENSE;
            double rel = Math.abs(local - r.sweepValue()) / Math.max(Math.abs(local), Double.MIN_NORMAL);
            boolean ok = onJvm ? Double.compare(local, r.sweepValue()) == 0 : rel <= 1e-10;
            System.out.printf(Locale.ROOT, "  verify: row-scaled sweep in this JVM %.17g in %.3f s, relative difference %.2e (%s): %s%n", local, secs, rel,
                    onJvm ? "bit for bit" : "<= 1e-10", ok ? "ok" : "FAILED");
            return ok ? 0 : SparkCommand.VERIFY_FAILED;
        }
    }
}
