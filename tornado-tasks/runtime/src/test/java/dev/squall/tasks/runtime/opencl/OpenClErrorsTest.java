package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class OpenClErrorsTest {
    @Test
    void namesAndKinds() {
        assertEquals("CL_MEM_OBJECT_ALLOCATION_FAILURE", OpenClErrors.name(-4));
        assertEquals("CL_OUT_OF_RESOURCES", OpenClErrors.name(-5));
        assertEquals("CL_BUILD_PROGRAM_FAILURE", OpenClErrors.name(-11));
        assertEquals("CL_INVALID_KERNEL_ARGS", OpenClErrors.name(-52));
        assertEquals("CL_PLATFORM_NOT_FOUND_KHR", OpenClErrors.name(-1001));
        assertEquals("CL_UNKNOWN_ERROR", OpenClErrors.name(-9999));

        DeviceException oom = OpenClErrors.exception("clEnqueueNDRangeKernel", -5, "opencl:0:0", null);
        assertEquals(DeviceException.Kind.OUT_OF_MEMORY, oom.kind());
        assertEquals("clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) on opencl:0:0", oom.getMessage());
        assertEquals(DeviceException.Kind.BAD_ARGUMENT, OpenClErrors.exception("f", -52, "d", null).kind());
        assertEquals(DeviceException.Kind.DRIVER_ERROR, OpenClErrors.exception("f", -36, "d", null).kind());
        DeviceException e = assertThrows(DeviceException.class, () -> OpenClErrors.check(-38, "clFoo", "opencl:1:2"));
        assertTrue(e.getMessage().contains("clFoo") && e.getMessage().contains("CL_INVALID_MEM_OBJECT (-38)")
                && e.getMessage().contains("opencl:1:2"), e.getMessage());
        assertDoesNotThrow(() -> OpenClErrors.check(0, "clFoo", "d"));
    }
}
