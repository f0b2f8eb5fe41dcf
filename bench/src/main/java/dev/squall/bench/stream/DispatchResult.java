package dev.squall.bench.stream;

/**
 * Host cost of launching: executing a one-kernel graph whose data is already on the device.
 *
 * @param device              device id
 * @param medianMicros        median host time of {@code execute()} (launch + wait), data resident
 * @param p10Micros           10th percentile
 * @param p90Micros           90th percentile
 * @param executions          timed executions
 * @param firstLaunchMillis   first execute of a new plan whose program is in the on-disk build cache (module load + bind + launch)
 * @param firstLaunchFromDiskCache whether that first launch found its binary in the disk cache
 * @param coldBuildMillis     first execute when the program had to be compiled (first ever, or cache cleared)
 */
public record DispatchResult(String device, double medianMicros, double p10Micros, double p90Micros, int executions,
                             double firstLaunchMillis, boolean firstLaunchFromDiskCache, double coldBuildMillis) {
}
