package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueueContractTest;

/**
 * The queue contract on several streams of one CUDA device: event ordering (cuStreamWaitEvent), pinned memory
 * (cuMemHostAlloc) and asynchronous copies. Skipped without a GPU; fails instead when SQUALL_REQUIRE_CUDA=1.
 */
class CudaQueueTest extends NativeQueueContractTest {
    static final String SOURCE = """
            extern "C" __global__ void slowIncrement(int* a, float* scratch, int iterations) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float x = (float) i;
                for (int k = 0; k < iterations; k++) x = x * 0.99993f + 1.0f;
                scratch[i] = x;
                a[i] = a[i] + 1;
            }
            extern "C" __global__ void timesThree(const int* a, int* b) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                b[i] = a[i] * 3;
            }
            """;

    CudaQueueTest() {
        super(SOURCE, 4096, 128, 1 << 18, 50);
    }

    @Override
    protected NativeDevice openDevice(BuildCache cache) {
        return CudaTestSupport.firstDevice(cache);
    }
}
