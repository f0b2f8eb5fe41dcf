package dev.squall.bench.stream;

/**
 * One STREAM figure.
 *
 * @param device      device id
 * @param deviceName  driver's device name
 * @param kernel      copy, scale, add or triad
 * @param precision   fp32 or fp64
 * @param elements    array length
 * @param bytes       bytes moved per call (reads + writes)
 * @param medianMillis median kernel time over the repeats (device events)
 * @param gbPerSecond bytes / median time
 * @param ratioToCopy this kernel's GB/s over the copy kernel's GB/s on the same device and precision
 * @param maxRelError largest relative error against the host reference
 */
public record StreamResult(String device, String deviceName, String kernel, String precision, long elements, long bytes,
                           double medianMillis, double gbPerSecond, double ratioToCopy, double maxRelError) {
}
