package dev.squall.bench.suite;

/** What limits a workload on a device, and so which measured limit its rate is compared with. */
public enum Bound {
    /** Memory traffic: the rate is GB/s of counted bytes, compared with the device's STREAM copy bandwidth. */
    MEMORY("GB/s", "copy"),
    /** Arithmetic: the rate is GFLOP/s of counted flops, compared with the device's multiply-add throughput. */
    COMPUTE("GFLOP/s", "fma");

    private final String unit;
    private final String limitName;

    Bound(String unit, String limitName) {
        this.unit = unit;
        this.limitName = limitName;
    }

    /** The unit of the rate: GB/s or GFLOP/s. */
    public String unit() {
        return unit;
    }

    /** The name of the limit the rate is divided by: copy (GB/s) or fma (GFLOP/s). */
    public String limitName() {
        return limitName;
    }
}
