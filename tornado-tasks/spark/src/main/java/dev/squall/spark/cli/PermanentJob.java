package dev.squall.spark.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code squall spark permanent}: a permanent as a Spark job of Gray-code chunks. */
@Command(name = "permanent", header = "Matrix permanent, one Spark task per chunk of Gray-code steps.", sortOptions = false,
        description = {"The 2^(n-1) Gray-code steps of Ryser's formula (rows scaled by powers of two) are cut into",
                "power-of-two chunks, --slots x --chunks-per-slot of them (by default as many as keep each chunk near a",
                "second of work or more, at most 4 a slot), one task each; the matrix goes out as a",
                "broadcast. The driver adds the chunks' partial sums in chunk order with compensation, so the value",
                "does not depend on scheduling, retries or speculation. Tasks run on their GPU (local mode: CUDA devices",
                "round-robin), else on --device (default jvm).",
                "--verify recomputes it in this JVM: on the JVM with ChunkedJvmPermanent, bit for bit; on a device as",
                "one sweep there, to 1e-10, and prints the Spark job's time over that single-process sweep's.",
                "--repeat N runs the job N times in one context (the first run builds the kernels).", "",
                "Examples:",
                "  squall spark permanent --random 24:0.5 --master local[2] --verify",
                "  squall spark permanent --random 40:0.5:1 --method codegen-hybrid --master local[1] --slots 1 \\",
                "      --chunks-per-slot 4 --require-gpu --repeat 2 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 1, precisions = {"fp64"})
public final class PermanentJob implements Callable<Integer> {
    static final class Input {
        @Option(names = "--random", paramLabel = "N:P[:SEED]", description = "random N x N matrix of density P (values uniform in [0,1), seed 1)") String random;
        @Option(names = "--matrix", paramLabel = "FILE", description = "Matrix Market file") Path file;
    }

    @ArgGroup(multiplicity = "1", order = 0) Input input;
    @Mixin SparkOptions spark;
    @Option(names = "--method", defaultValue = "dense", order = 10, description = "dense, sparse, codegen-hybrid or codegen-reg (default: ${DEFAULT-VALUE})") String method;
    @Option(names = "--chunks-per-slot", order = 11, description = "chunks per task slot (default: 1 to 4, as many as keep each chunk at 2^39 Gray steps or more for codegen methods, 2^31 for dense and sparse: about a second of work, so Spark's per-task cost stays small)") Integer chunksPerSlot;
    @Option(names = "--slots", order = 12, description = "task slots to size the job for (default: the context's parallelism; on a GPU cluster: its GPUs)") Integer slots;
    @Mixin RunOptions run;

    /**
     * {@code squall spark permanent --json}: one object per run of the job.
     *
     * @param command       {@code "spark permanent"}
     * @param master        the Spark master
     * @param n             the matrix order
     * @param method        the sweep's method
     * @param run           1, 2, ... (the first run builds the kernels)
     * @param value         the permanent (a double; {@code null} outside the double range, see {@code value_text})
     * @param valueText     the permanent as text, {@code m x 2^e} where it leaves the double range
     * @param sweepValue    the permanent of the row-scaled matrix
     * @param exponent      the row scaling's power of two ({@code value = sweep_value * 2^exponent})
     * @param chunks        tasks (chunks of Gray-code steps)
     * @param chunkSteps    steps per chunk
     * @param ranOn         chunks per device
     * @param seconds       the job's wall time, broadcast to sum, on the driver
     * @param verified      whether {@code --verify} ran
     * @param ok            false only when the check ran and failed
     * @param reference     the single-process value ({@code --verify}; else null)
     * @param relativeError {@code |value - reference| / |reference|} of the sweep values (null without --verify)
     * @param singleSeconds the single-process sweep's time in this JVM (null without --verify)
     * @param ratio         {@code seconds / single_seconds} (null without --verify)
     */
    public record Result(String command, String master, int n, String method, int run, Double value, String valueText, double sweepValue, long exponent,
                         int chunks, long chunkSteps, Map<String, Integer> ranOn, double seconds, boolean verified, boolean ok, Double reference,
                         Double relativeError, Double singleSeconds, Double ratio) {
    }

    @Override
    public Integer call() throws Exception {
        SparkCommand.requireSpark();
        List<Result> results = SparkJobs.permanent(this);
        return results.stream().allMatch(Result::ok) ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }
}
