package dev.squall.spark.permanent;

import dev.squall.permanent.GrayChunks;
import dev.squall.permanent.Method;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.spark.TaskDevices;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A matrix permanent as a Spark job: the {@code 2^(n-1)} Gray-code steps of Ryser's formula cut into power-of-two
 * chunks ({@link GrayChunks#cut}), one task per chunk, the row-scaled matrix shipped once as a broadcast, each task
 * on its own device ({@link TaskDevices}: its GPU, else the fallback). Tasks return their chunk's partials; the
 * driver sorts them by chunk and adds them with compensation in that order ({@link GrayChunks#permanent}), so the
 * value is the same bit for bit however tasks are scheduled, retried or speculated (not {@code rdd.reduce}, whose
 * order follows completion). On the JVM it equals the single-process
 * {@link dev.squall.permanent.cpu.ChunkedJvmPermanent} of the scaled matrix bit for bit.
 *
 * <pre>{@code
 * DistributedPermanent.Result r = new DistributedPermanent(sc).method(Method.CODEGEN_HYBRID).chunksPerSlot(8).compute(a);
 * System.out.println(r.value().toText() + " from " + r.chunks() + " chunks on " + r.devices());
 * }</pre>
 */
public final class DistributedPermanent {
    /**
     * @param value        the permanent, {@code sweepValue * 2^exponent}
     * @param sweepValue   the permanent of the row-scaled matrix (the Gray-code sum times its final factor)
     * @param exponent     the row scaling's power of two
     * @param chunks       tasks (chunks of steps)
     * @param chunkSteps   steps per chunk
     * @param devices      the device each chunk ran on, in chunk order (of the attempt that succeeded)
     * @param seconds      wall time of the job, broadcast to sum
     */
    public record Result(ScaledValue value, double sweepValue, long exponent, int chunks, long chunkSteps, List<String> devices, double seconds) {
    }

    /** A chunk's outcome, sent back to the driver. */
    record ChunkPartials(int chunk, double[] partials, String device) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private final JavaSparkContext sc;
    private Method method = Method.DENSE;
    /** 0: {@link #autoChunksPerSlot}. */
    private int chunksPerSlot = 0;
    private int slots;
    private TaskDevices devices = TaskDevices.fallingBackTo("jvm");
    private Fault fault = Fault.THROW;
    private int faultChunk = -1;

    /** Faults the tests inject into the first attempt of one chunk's task, to see Spark re-run it. */
    public enum Fault {
        /** The attempt throws: a failed task. */
        THROW,
        /** The attempt waits (up to 60 s) until Spark kills it ({@code SparkContext.killTaskAttempt}), then ends: a killed task. */
        WAIT_FOR_KILL,
        /** The attempt ends its executor JVM ({@code Runtime.halt}; only in an executor, never in the driver): a lost executor. */
        HALT_EXECUTOR
    }

    public DistributedPermanent(JavaSparkContext sc) {
        this.sc = sc;
        this.slots = sc.defaultParallelism();
    }

    /** The sweep: DENSE or SPARSE (JVM or generic kernels), CODEGEN_REG or CODEGEN_HYBRID (GPUs and OpenCL). */
    public DistributedPermanent method(Method m) {
        if (m == Method.AUTO || m == Method.DENSE_LOCAL) throw new IllegalArgumentException("distributed permanents run dense, sparse, codegen-reg or codegen-hybrid, not " + m.cliName());
        this.method = m;
        return this;
    }

    /**
     * Chunks per task slot. By default {@link #autoChunksPerSlot}: up to 4 a slot (balance, cheap re-runs of a failed
     * task), but never chunks so short that Spark's per-task cost shows.
     */
    public DistributedPermanent chunksPerSlot(int c) {
        if (c < 1) throw new IllegalArgumentException("chunks per slot must be >= 1, got " + c);
        this.chunksPerSlot = c;
        return this;
    }

    /** Gray steps a chunk of a generated (GPU/OpenCL) kernel should hold at least: about 1 s on an H100 (0.5-1.1e12 steps/s). */
    public static final long MIN_GENERATED_CHUNK_STEPS = 1L << 39;
    /** The same for the JVM sweeps and generic kernels: about 1 s of a JVM task at ~1e9 steps/s. */
    public static final long MIN_GENERIC_CHUNK_STEPS = 1L << 31;

    /**
     * The default chunks per slot: as many as keep each chunk at {@link #MIN_GENERATED_CHUNK_STEPS} (generated
     * kernels) or {@link #MIN_GENERIC_CHUNK_STEPS} (dense, sparse) Gray steps or more, between 1 and 4. Each task
     * pays a Spark round trip and a launch (ms), so short chunks cost more than the balance they buy: on one H100 a
     * 40 x 40 sweep of 1.25 s ran 1.8 % over the single process as one chunk, 12 % as four.
     */
    public static int autoChunksPerSlot(int n, int slots, Method method) {
        long steps = NijenhuisWilf.steps(n);
        long min = method == Method.CODEGEN_REG || method == Method.CODEGEN_HYBRID ? MIN_GENERATED_CHUNK_STEPS : MIN_GENERIC_CHUNK_STEPS;
        long perSlot = steps / Math.max(1, slots) / min;
        return (int) Math.max(1, Math.min(4, perSlot));
    }

    /** Task slots the job is sized for (default: the context's default parallelism; a GPU cluster: its GPUs). */
    public DistributedPermanent slots(int s) {
        if (s < 1) throw new IllegalArgumentException("slots must be >= 1, got " + s);
        this.slots = s;
        return this;
    }

    public DistributedPermanent devices(TaskDevices d) {
        this.devices = d;
        return this;
    }

    /** Test hook: the first attempt of this chunk's task throws, so Spark re-runs it (-1, the default: none). */
    public DistributedPermanent failFirstAttemptOf(int chunk) {
        return injectFault(Fault.THROW, chunk);
    }

    /** Test hook: {@code fault} strikes the first attempt of this chunk's task (-1: none). */
    public DistributedPermanent injectFault(Fault f, int chunk) {
        this.fault = f;
        this.faultChunk = chunk;
        return this;
    }

    private static void strike(Fault f, int chunk) throws InterruptedException {
        switch (f) {
            case THROW -> throw new IllegalStateException("injected failure of chunk " + chunk + " (first attempt)");
            case WAIT_FOR_KILL -> {
                long until = System.nanoTime() + 60_000_000_000L;
                while (!TaskContext.get().isInterrupted() && System.nanoTime() < until) Thread.sleep(10);
                TaskContext.get().killTaskIfInterrupted();
            }
            case HALT_EXECUTOR -> {
                if ("driver".equals(SparkEnv.get().executorId())) throw new IllegalStateException("HALT_EXECUTOR would end the driver: use it under local-cluster");
                Runtime.getRuntime().halt(77);
            }
        }
    }

    public Result compute(SquareMatrix a) {
        int n = a.n();
        NijenhuisWilf.checkOrder(n);
        long t0 = System.nanoTime();
        RowScaling scaling = RowScaling.of(a);
        int perSlot = chunksPerSlot > 0 ? chunksPerSlot : autoChunksPerSlot(n, slots, method);
        List<long[]> cut = GrayChunks.cut(n, slots * perSlot);
        // the JVM sums per unit of 2^k steps: chunks must hold whole units (they do unless there are more chunks than units)
        long unit = GrayChunks.jvmUnit(n);
        if (cut.get(0)[1] - cut.get(0)[0] < unit) cut = GrayChunks.cut(n, (int) (NijenhuisWilf.steps(n) / unit));
        List<long[]> chunks = cut;
        Broadcast<double[]> matrix = sc.broadcast(scaling.scaled().rowMajor());
        Method m = method;
        TaskDevices td = devices;
        int faulty = faultChunk;
        Fault f = fault;
        List<Integer> ids = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) ids.add(c);
        try {
            JavaRDD<ChunkPartials> job = sc.parallelize(ids, ids.size()).map(c -> {
                if (c == faulty && TaskContext.get().attemptNumber() == 0) strike(f, c);
                SquareMatrix b = SquareMatrix.of(n, matrix.value());
                long[] range = chunks.get(c);
                return td.run(d -> new ChunkPartials(c, new GrayChunks(d, m).partials(b, range[0], range[1]), d.id()));
            });
            List<ChunkPartials> parts = new ArrayList<>(job.collect());
            parts.sort(Comparator.comparingInt(ChunkPartials::chunk));
            if (parts.size() != chunks.size()) throw new IllegalStateException("expected " + chunks.size() + " chunk results, got " + parts.size());
            double sweep = GrayChunks.permanent(n, parts.stream().map(ChunkPartials::partials).toList());
            return new Result(ScaledValue.of(sweep, scaling.exponent()), sweep, scaling.exponent(), chunks.size(),
                    chunks.get(0)[1] - chunks.get(0)[0], parts.stream().map(ChunkPartials::device).toList(), (System.nanoTime() - t0) / 1e9);
        } finally {
            matrix.destroy();
        }
    }
}
