package dev.squall.spark;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class TaskDevicesTest {
    private static final List<String> TWO_GPUS = List.of("cuda:0", "cuda:1");

    @Test
    void sparkGpuAddressBecomesCudaDevice() {
        assertEquals("cuda:1", TaskDevices.choose(new String[] {"1"}, 0, false, TWO_GPUS, "jvm", true));
        assertEquals("cuda:0", TaskDevices.choose(new String[] {"0", "1"}, 7, true, TWO_GPUS, "jvm", false), "first address wins");
    }

    @Test
    void addressTheExecutorLacksIsAClearError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TaskDevices.choose(new String[] {"3"}, 5, false, TWO_GPUS, "jvm", false));
        assertTrue(e.getMessage().contains("partition 5") && e.getMessage().contains("cuda:3") && e.getMessage().contains("[cuda:0, cuda:1]"), e.getMessage());
    }

    @Test
    void localModeAssignsGpusRoundRobinByPartition() {
        for (int p = 0; p < 6; p++) assertEquals("cuda:" + (p % 2), TaskDevices.choose(null, p, true, TWO_GPUS, "jvm", false));
        assertEquals("cuda:0", TaskDevices.choose(new String[0], 4, true, TWO_GPUS, "jvm", false));
    }

    @Test
    void noGpuFallsBackOrFailsWhenRequired() {
        assertEquals("opencl:0:0", TaskDevices.choose(null, 2, true, List.of(), "opencl:0:0", false));
        assertEquals("jvm", TaskDevices.choose(null, 2, false, TWO_GPUS, "jvm", false), "a cluster task without a GPU resource");
        IllegalStateException cluster = assertThrows(IllegalStateException.class, () -> TaskDevices.choose(null, 2, false, TWO_GPUS, "jvm", true));
        assertTrue(cluster.getMessage().contains("spark.task.resource.gpu.amount"), cluster.getMessage());
        IllegalStateException local = assertThrows(IllegalStateException.class, () -> TaskDevices.choose(null, 2, true, List.of(), "jvm", true));
        assertTrue(local.getMessage().contains("no CUDA device"), local.getMessage());
    }

    /** Six tasks on one GPU with a cap of two: never more than two hold it at once, and two do. */
    @Test
    void capLimitsConcurrentTasksPerGpu() throws Exception {
        java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger(), most = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch twoIn = new java.util.concurrent.CountDownLatch(2);
        List<Thread> tasks = new java.util.ArrayList<>();
        for (int t = 0; t < 6; t++) {
            tasks.add(Thread.ofPlatform().start(() -> TaskDevices.holdingSlot("cuda:test", 2, () -> {
                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                twoIn.countDown();
                try {
                    twoIn.await(); // the first two meet inside; later ones pass at once
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return inside.decrementAndGet();
            })));
        }
        for (Thread t : tasks) t.join();
        assertEquals(2, most.get());
        assertEquals(0, inside.get());
    }

    @Test
    void settingsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> TaskDevices.fallingBackTo(" "));
        assertThrows(IllegalArgumentException.class, () -> TaskDevices.fallingBackTo("jvm").maxTasksPerGpu(0));
        assertEquals(3, TaskDevices.fallingBackTo("jvm").maxTasksPerGpu(3).maxTasksPerGpu());
    }
}
