package dev.squall.bench.suite;

/**
 * Sees each workload's device result before it is verified. The runs use {@link #NONE}; tests pass a hook that
 * changes a value, to prove that verification catches a wrong result.
 */
@FunctionalInterface
public interface ResultHook {
    /** Leaves every result as it is. */
    ResultHook NONE = (workload, values) -> {
    };

    /** May change {@code values}, the device's result of {@code workload} (a {@link Workload#name()}), in place. */
    void accept(String workload, double[] values);
}
