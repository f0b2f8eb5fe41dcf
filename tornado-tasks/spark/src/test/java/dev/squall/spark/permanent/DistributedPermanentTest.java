package dev.squall.spark.permanent;

import dev.squall.permanent.Method;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import dev.squall.spark.TaskFaultListener;
import dev.squall.tasks.runtime.Devices;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** Local mode, 4 task slots, up to 4 attempts per task ({@code local[4,4]}). */
class DistributedPermanentTest {
    /** The JVM even where this machine has GPUs (local mode would hand them out round-robin). */
    static final TaskDevices JVM = TaskDevices.fallingBackTo("jvm").localGpus(false);
    static JavaSparkContext sc;
    static TaskFaultListener faults;

    @BeforeAll
    static void start() {
        sc = SquallSpark.start(SquallSpark.conf("local[4,4]", "squall-permanent-test"));
        faults = TaskFaultListener.on(sc);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    static SquareMatrix random(int n, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int k = 0; k < v.length; k++) v[k] = r.nextDouble() < 0.6 ? r.nextDouble() * 2 - 1 : 0;
        return SquareMatrix.of(n, v);
    }

    static SquareMatrix ones(int n, boolean zeroDiagonal) {
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = zeroDiagonal && i == j ? 0 : 1;
        return SquareMatrix.of(n, v);
    }

    @Test
    void equalsSingleProcessValueBitForBit() {
        for (int n : new int[] {9, 20, 24}) {
            SquareMatrix a = random(n, n);
            SquareMatrix scaled = RowScaling.of(a).scaled();
            DistributedPermanent.Result dense = new DistributedPermanent(sc).devices(JVM).chunksPerSlot(8).compute(a);
            assertEquals(Double.doubleToLongBits(new ChunkedJvmPermanent(2).dense(scaled)), Double.doubleToLongBits(dense.sweepValue()), "dense n=" + n);
            assertEquals(32, dense.chunks(), "4 slots x 8 chunks");
            DistributedPermanent.Result sparse = new DistributedPermanent(sc).devices(JVM).method(Method.SPARSE).chunksPerSlot(5).compute(a);
            assertEquals(Double.doubleToLongBits(new ChunkedJvmPermanent(3).sparse(scaled)), Double.doubleToLongBits(sparse.sweepValue()), "sparse n=" + n);
        }
    }

    /** n = 26: the largest order the issue asks to match bit for bit; 2^25 steps over 16 tasks. */
    @Test
    void order26EqualsSingleProcessBitForBit() {
        SquareMatrix a = random(26, 2626);
        DistributedPermanent.Result r = new DistributedPermanent(sc).devices(JVM).chunksPerSlot(4).compute(a);
        assertEquals(16, r.chunks());
        assertEquals(1L << 21, r.chunkSteps());
        assertEquals(Double.doubleToLongBits(new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled())), Double.doubleToLongBits(r.sweepValue()));
    }

    @Test
    void knownExactValues() {
        // perm(J_n) = n!, perm(J_n - I) = D_n (derangements): exact integers below 2^53
        BigInteger f = BigInteger.ONE, d = BigInteger.ONE;
        for (int k = 1; k <= 18; k++) {
            f = f.multiply(BigInteger.valueOf(k));
            d = d.multiply(BigInteger.valueOf(k)).add(BigInteger.valueOf((k & 1) == 0 ? 1 : -1));
        }
        assertEquals(f.doubleValue(), new DistributedPermanent(sc).devices(JVM).compute(ones(18, false)).value().toDouble(), 1e-13 * f.doubleValue(), "18!");
        assertEquals(d.doubleValue(), new DistributedPermanent(sc).devices(JVM).method(Method.SPARSE).compute(ones(18, true)).value().toDouble(), 1e-13 * d.doubleValue(), "D_18");
        assertEquals(-6.0, new DistributedPermanent(sc).devices(JVM).compute(SquareMatrix.of(2, new double[] {1, 2, 3, -12})).value().toDouble(), 0.0, "2x2");
    }

    @Test
    void failedTaskIsRetriedAndTheValueIsUnchanged() throws Exception {
        SquareMatrix a = random(21, 77);
        double clean = new DistributedPermanent(sc).devices(JVM).compute(a).sweepValue();
        int before = faults.failed.get();
        DistributedPermanent.Result r = new DistributedPermanent(sc).devices(JVM).chunksPerSlot(4).failFirstAttemptOf(5).compute(a);
        sc.sc().listenerBus().waitUntilEmpty();
        assertEquals(1, faults.failed.get() - before, "one task attempt failed");
        assertEquals(Double.doubleToLongBits(clean), Double.doubleToLongBits(r.sweepValue()));
        assertEquals(16, r.devices().size());
    }

    /** A task killed while it runs (SparkContext.killTaskAttempt, as the UI's kill does) is re-run: the same value bit for bit. */
    @Test
    void killedTaskIsRerunAndTheValueIsUnchanged() throws Exception {
        SquareMatrix a = random(20, 2020);
        double clean = new DistributedPermanent(sc).devices(JVM).compute(a).sweepValue();
        sc.sc().listenerBus().waitUntilEmpty();
        int killedBefore = faults.killed.get();
        faults.killFirstAttemptOf(6);
        try {
            DistributedPermanent.Result r = new DistributedPermanent(sc).devices(JVM).chunksPerSlot(4).injectFault(DistributedPermanent.Fault.WAIT_FOR_KILL, 6).compute(a);
            sc.sc().listenerBus().waitUntilEmpty();
            assertEquals(1, faults.killed.get() - killedBefore, "one task attempt was killed and re-run");
            assertEquals(Double.doubleToLongBits(clean), Double.doubleToLongBits(r.sweepValue()));
            assertEquals(16, r.devices().size());
        } finally {
            faults.killFirstAttemptOf(-1);
        }
    }

    @Test
    void tasksWithoutGpuRunOnTheFallbackOrFailWhenAGpuIsRequired() {
        SquareMatrix a = random(14, 5);
        DistributedPermanent.Result r = new DistributedPermanent(sc).devices(JVM).compute(a);
        assertTrue(r.devices().stream().allMatch("jvm"::equals), r.devices().toString());
        List<String> cuda = Devices.all().stream().map(d -> d.id()).filter(id -> id.startsWith("cuda:")).toList();
        if (cuda.isEmpty()) {
            SparkException e = assertThrows(SparkException.class,
                    () -> new DistributedPermanent(sc).devices(TaskDevices.fallingBackTo("jvm").requireGpu(true)).compute(a));
            assertTrue(e.getMessage().contains("needs a GPU but has none"), e.getMessage());
        } else {
            // local mode on a GPU host: chunk c (partition c) runs on cuda:(c mod GPUs), with the generated kernel
            SquareMatrix b = random(24, 6);
            DistributedPermanent.Result g = new DistributedPermanent(sc).method(Method.CODEGEN_HYBRID).devices(TaskDevices.fallingBackTo("jvm")).compute(b);
            for (int c = 0; c < g.chunks(); c++) assertEquals(cuda.get(c % cuda.size()), g.devices().get(c), "chunk " + c);
            double jvm = new ChunkedJvmPermanent(2).dense(RowScaling.of(b).scaled());
            assertEquals(jvm, g.sweepValue(), 1e-10 * Math.abs(jvm));
        }
    }

    /** OpenCL inside tasks (PoCL on CI): the generic kernel per chunk, and the generated one, against the JVM's value. */
    @Test
    void openClFallbackDevice() {
        boolean opencl = Devices.all().stream().anyMatch(d -> d.id().startsWith("opencl:"));
        if (!opencl) {
            assertNull(System.getenv("SQUALL_REQUIRE_OPENCL"), "SQUALL_REQUIRE_OPENCL is set but no OpenCL device is present");
            return;
        }
        String id = Devices.all().stream().filter(d -> d.id().startsWith("opencl:")).findFirst().orElseThrow().id();
        SquareMatrix a = random(16, 16);
        double jvm = new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled());
        for (Method m : new Method[] {Method.DENSE, Method.CODEGEN_HYBRID}) {
            DistributedPermanent.Result r = new DistributedPermanent(sc).method(m).chunksPerSlot(1).devices(TaskDevices.fallingBackTo(id).localGpus(false)).compute(a);
            assertTrue(r.devices().stream().allMatch(id::equals), r.devices().toString());
            assertEquals(jvm, r.sweepValue(), 1e-10 * Math.abs(jvm), m.cliName() + " on " + id);
        }
    }

    @Test
    void badSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new DistributedPermanent(sc).devices(JVM).method(Method.AUTO));
        assertThrows(IllegalArgumentException.class, () -> new DistributedPermanent(sc).devices(JVM).chunksPerSlot(0));
        assertThrows(IllegalArgumentException.class, () -> new DistributedPermanent(sc).devices(JVM).compute(SquareMatrix.of(64, new double[64 * 64])));
    }

    @Test
    void defaultChunksKeepEachChunkLongAndStayBetweenOneAndFourPerSlot() {
        // generated kernels: at least 2^39 steps a chunk; 2^(n-1) steps over the slots
        assertEquals(1, DistributedPermanent.autoChunksPerSlot(40, 1, Method.CODEGEN_HYBRID), "2^39 steps: one chunk");
        assertEquals(2, DistributedPermanent.autoChunksPerSlot(41, 1, Method.CODEGEN_HYBRID));
        assertEquals(4, DistributedPermanent.autoChunksPerSlot(42, 1, Method.CODEGEN_REG));
        assertEquals(4, DistributedPermanent.autoChunksPerSlot(50, 1, Method.CODEGEN_HYBRID), "at most 4 a slot");
        assertEquals(1, DistributedPermanent.autoChunksPerSlot(42, 8, Method.CODEGEN_HYBRID), "2^41 steps over 8 slots");
        assertEquals(2, DistributedPermanent.autoChunksPerSlot(44, 8, Method.CODEGEN_HYBRID));
        // dense and sparse sweeps: at least 2^31 steps a chunk
        assertEquals(1, DistributedPermanent.autoChunksPerSlot(17, 2, Method.DENSE));
        assertEquals(2, DistributedPermanent.autoChunksPerSlot(33, 1, Method.SPARSE));
        assertEquals(4, DistributedPermanent.autoChunksPerSlot(34, 1, Method.DENSE));
        assertEquals(4, DistributedPermanent.autoChunksPerSlot(60, 64, Method.DENSE));
    }
}
