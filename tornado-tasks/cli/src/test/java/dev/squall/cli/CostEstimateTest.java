package dev.squall.cli;

import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CostEstimateTest {
    private static DeviceInfo device(DeviceType type, int units) {
        return new DeviceInfo("test", "test:0", "a test device", "nobody", "1", 1L << 34, 1 << 16, units, 1024, 32, true, type, "");
    }

    @Test
    void gpuRateGrowsWithMultiprocessorsAndHasAFloor() {
        assertEquals(132 * CostEstimate.GPU_FLOPS_PER_UNIT, CostEstimate.flopRate(device(DeviceType.GPU, 132)));
        assertEquals(1e12, CostEstimate.flopRate(device(DeviceType.GPU, 2)));   // a small GPU: the 1 TFLOP/s floor
        assertEquals(1e12, CostEstimate.flopRate(device(DeviceType.GPU, 0)));   // no unit count reported
    }

    @Test
    void cpuRateIsPerCore() {
        assertEquals(16 * CostEstimate.CPU_FLOPS_PER_CORE, CostEstimate.flopRate(device(DeviceType.CPU, 16)));
        assertEquals(CostEstimate.CPU_FLOPS_PER_CORE, CostEstimate.flopRate(device(DeviceType.CPU, 0)));
    }

    @Test
    void durationsReadInTheRightUnit() {
        assertEquals("45 s", CostEstimate.duration(45));
        assertEquals("12 min", CostEstimate.duration(720));
        assertEquals("3.1 h", CostEstimate.duration(3.1 * 3600));
        assertEquals("2.50 days", CostEstimate.duration(2.5 * 86400));
    }
}
