package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;
import dev.squall.tasks.runtime.spi.NativeQueueContractTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue contract on several command queues of one OpenCL device (PoCL in CI), and OpenCL's launch errors. */
class OpenClQueueTest extends NativeQueueContractTest {
    static final String SOURCE = """
            __kernel void slowIncrement(__global int* a, __global float* scratch, int iterations) {
                int i = get_global_id(0);
                float x = (float) i;
                for (int k = 0; k < iterations; k++) x = x * 0.99993f + 1.0f;
                scratch[i] = x;
                a[i] = a[i] + 1;
            }
            __kernel void timesThree(__global const int* a, __global int* b) {
                int i = get_global_id(0);
                b[i] = a[i] * 3;
            }
            """;

    OpenClQueueTest() {
        super(SOURCE, 1024, 64, 20_000, 30);
    }

    @Override
    protected NativeDevice openDevice(BuildCache cache) {
        return OpenClTestSupport.device(cache);
    }

    @Test
    void launchErrorsOnAQueueCarryTheDriversName() {
        NativeQueue q = dev.newQueue();
        DeviceBuffer a = dev.allocate(4L * n), b = dev.allocate(4L * n);
        BoundLaunch times3 = timesThree(a, b);
        try {
            long tooLarge = 2L * dev.info().maxWorkGroupSize();
            DeviceException e = assertThrows(DeviceException.class,
                    () -> times3.launch(q, new long[] {tooLarge}, new long[] {tooLarge}));
            assertTrue(e.getMessage().contains("CL_INVALID_WORK_GROUP_SIZE"), e.getMessage());
        } finally {
            times3.release();
            a.release(); b.release();
            q.release();
        }
    }
}
