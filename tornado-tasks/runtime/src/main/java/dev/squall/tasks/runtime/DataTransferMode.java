package dev.squall.tasks.runtime;

/**
 * When a graph copies an array between host and device, as in TornadoVM.
 *
 * <pre>{@code graph.transferToDevice(DataTransferMode.FIRST_EXECUTION, matrix); }</pre>
 */
public enum DataTransferMode {
    /** Only on the plan's first execution (read-only inputs, device-resident state). */
    FIRST_EXECUTION,
    /** On every execution. */
    EVERY_EXECUTION,
    /** Only when asked: {@link ExecutionResult#transferToHost}. */
    UNDER_DEMAND
}
