package uk.ac.manchester.tornado.api.enums;

/** When a task graph copies data: {@link #FIRST_EXECUTION}, {@link #EVERY_EXECUTION}, or {@link #UNDER_DEMAND} (copies to the host only). */
public final class DataTransferMode {
    /** Copy on the first execution of the plan only (read-only inputs). */
    public static final int FIRST_EXECUTION = 0;
    /** Copy on every execution. */
    public static final int EVERY_EXECUTION = 1;
    /** Copy to the host only when asked, through {@code TornadoExecutionResult.transferToHost}. */
    public static final int UNDER_DEMAND = 2;

    private DataTransferMode() {
    }
}
