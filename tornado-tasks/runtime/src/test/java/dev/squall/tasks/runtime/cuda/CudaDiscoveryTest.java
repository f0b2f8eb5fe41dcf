package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.spi.NativeDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class CudaDiscoveryTest {
    @TempDir
    Path cacheDir;

    @Test
    void nameIsCuda() {
        assertEquals("cuda", new CudaBackend().name());
    }

    @Test
    void withoutDriverDiscoveryReportsLibcuda() {
        assumeFalse(CudaTestSupport.libcudaLoadable(), "libcuda.so.1 is loadable here");
        assumeFalse(CudaTestSupport.requireCuda(), "SQUALL_REQUIRE_CUDA=1");
        CudaBackend backend = new CudaBackend(new BuildCache(cacheDir));
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class, backend::discover);
        assertTrue(e.getMessage().contains("libcuda.so.1 not found: no NVIDIA driver"), e.getMessage());
        // a second attempt gives the same answer and still does not crash
        BackendUnavailableException again = assertThrows(BackendUnavailableException.class, backend::discover);
        assertEquals(e.getMessage(), again.getMessage());
    }

    @Test
    void withDriverDiscoveryListsDevicesOrSaysWhy() {
        assumeFalse(!CudaTestSupport.libcudaLoadable(), "no libcuda.so.1 here");
        List<NativeDevice> devices;
        try {
            devices = new CudaBackend(new BuildCache(cacheDir)).discover();
        } catch (BackendUnavailableException e) {
            if (CudaTestSupport.requireCuda()) fail("SQUALL_REQUIRE_CUDA=1 but: " + e.getMessage());
            assertFalse(e.getMessage().isBlank());
            return;
        }
        for (int i = 0; i < devices.size(); i++) {
            NativeDevice d = devices.get(i);
            DeviceInfo info = d.info();
            assertEquals("cuda", info.backend());
            assertEquals("cuda:" + i, info.id());
            assertEquals("NVIDIA", info.vendor());
            assertFalse(info.name().isBlank());
            assertTrue(info.driverVersion().matches("\\d+\\.\\d+"), info.driverVersion());
            assertTrue(info.computeCapability().matches("\\d+\\.\\d+"), info.computeCapability());
            assertTrue(info.globalMemoryBytes() > 0);
            assertTrue(info.localMemoryBytes() >= 16 * 1024);
            assertTrue(info.computeUnits() > 0);
            assertTrue(info.maxWorkGroupSize() >= 512);
            assertEquals(32, info.subgroupSize());
            assertTrue(info.fp64());
            assertTrue(info.isGpu());
            d.close();
        }
    }
}
