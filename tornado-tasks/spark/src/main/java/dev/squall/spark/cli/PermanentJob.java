package dev.squall.spark.cli;

import dev.squall.permanent.GrayChunks;
import dev.squall.permanent.Method;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.spark.permanent.DistributedPermanent;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
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
                "--verify recomputes it in this JVM: on the JVM with ChunkedJvmPermanent, bit for bit;",
                "on a device as one sweep there, to 1e-10, printing Spark's time over the single run's.", "",
                "  squall spark permanent --random 40:0.5:1 --method codegen-hybrid --master local[1] \\",
                "      --slots 1 --chunks-per-slot 4 --require-gpu --repeat 2 --verify",
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

    @Option(names = "--repeat", defaultValue = "1", description = "Run the job N times (the first builds the kernels; default: ${DEFAULT-VALUE})") int repeat;

    @Override
    public Integer call() throws Exception {
        SquareMatrix a = input.random != null ? RandomSquareMatrices.parse(input.random) : SquareMatrix.read(input.file);
        Method m = Method.parse(method);
        if (repeat < 1) throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        try (JavaSparkContext sc = spark.start("squall-permanent")) {
            DistributedPermanent job = new DistributedPermanent(sc).method(m).chunksPerSlot(chunksPerSlot).devices(spark.devices());
            if (slots != null) job.slots(slots);
            DistributedPermanent.Result r = null;
            for (int k = 0; k < repeat; k++) {
                r = job.compute(a);
                TreeMap<String, Integer> perDevice = new TreeMap<>();
                for (String d : r.devices()) perDevice.merge(d, 1, Integer::sum);
                System.out.printf(Locale.ROOT, "permanent %s (n = %d)%n  %d chunks of %d steps on %s, %.3f s (master %s)%n",
                        r.value().toText(), a.n(), r.chunks(), r.chunkSteps(), perDevice, r.seconds(), spark.master());
            }
            return verify ? verify(a, m, r) : 0;
        }
    }

    /**
     * On the JVM: ChunkedJvmPermanent in this JVM, bit for bit. On a device: the same sweep as one piece on the device
     * of the first chunk (the single-process run), to 1e-10, with the time ratio the 10% target is about.
     */
    private int verify(SquareMatrix a, Method m, DistributedPermanent.Result r) {
        SquareMatrix scaled = RowScaling.of(a).scaled();
        boolean onJvm = r.devices().stream().allMatch("jvm"::equals);
        long t0 = System.nanoTime();
        double local;
        String how;
        if (onJvm) {
            int threads = Runtime.getRuntime().availableProcessors();
            local = m == Method.SPARSE ? new ChunkedJvmPermanent(threads).sparse(scaled) : new ChunkedJvmPermanent(threads).dense(scaled);
            how = "ChunkedJvmPermanent in this JVM, bit for bit";
        } else {
            Device d = Devices.get(r.devices().get(0));
            double[] whole = new GrayChunks(d, m).partials(scaled, 0, NijenhuisWilf.steps(a.n()));
            local = NijenhuisWilf.finalFactor(a.n()) * (whole[0] + whole[1]);
            how = "one " + m.cliName() + " sweep on " + d.id() + " in this JVM, <= 1e-10";
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double rel = Math.abs(local - r.sweepValue()) / Math.max(Math.abs(local), Double.MIN_NORMAL);
        boolean ok = onJvm ? Double.compare(local, r.sweepValue()) == 0 : rel <= 1e-10;
        System.out.printf(Locale.ROOT, "  verify (%s): %.17g in %.3f s, relative difference %.2e: %s; Spark job / single process = %.3f%n",
                how, local, secs, rel, ok ? "ok" : "FAILED", r.seconds() / secs);
        return ok ? 0 : SparkCommand.VERIFY_FAILED;
    }
}
