package dev.squall.tasks.runtime.spi;

/**
 * One argument of a device kernel, in device-program order: arrays become a buffer followed by
 * an {@code I64} length; booleans travel as {@code I32}.
 */
public sealed interface KernelArg {
    record Buffer(DeviceBuffer buffer) implements KernelArg {}
    record I8(byte value) implements KernelArg {}
    record I16(short value) implements KernelArg {}
    record I32(int value) implements KernelArg {}
    record I64(long value) implements KernelArg {}
    record F32(float value) implements KernelArg {}
    record F64(double value) implements KernelArg {}
}
