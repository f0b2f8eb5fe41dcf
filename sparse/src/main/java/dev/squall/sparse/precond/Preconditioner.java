package dev.squall.sparse.precond;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * A preconditioner {@code z = M^-1 r} as launches appended to a solver's task graph; its own arrays (schedules,
 * factors, coarse levels) are made once and stay on the device. A solver appends it to its setup graph and its
 * iteration graph with the same {@code r} and {@code z}.
 *
 * <pre>{@code
 * Preconditioner m = new JacobiPreconditioner(deviceMatrix, precision);
 * m.appendApply(graph, "precond", r, z);
 * }</pre>
 */
public interface Preconditioner {
    /** Short name ({@code jacobi}, {@code symgs}, {@code ilu0}, {@code mg}). */
    String name();

    /** One line on its structure (schedules, levels) for reports. */
    String describe();

    /** Host and device time spent building it (inspectors, factorisation), in milliseconds. */
    double setupMillis();

    /** Floating-point operations of one application, counted as HPCG counts (2 per stored entry per sweep). */
    double flopsPerApply();

    /** Bytes one application moves at least (matrix entries and vectors once per pass), for GB/s. */
    double bytesPerApply();

    /** Appends {@code z = M^-1 r}; task names start with {@code prefix}. */
    void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z);

    /**
     * The application split into parts that can be timed alone, in the order {@link #appendApply} runs them (their
     * launches together are its launches); by default one part, the whole application.
     */
    default java.util.List<Phase> phases(String prefix, KernelArray r, KernelArray z) {
        return java.util.List.of(new Phase("precond " + name(), -1, g -> appendApply(g, prefix, r, z)));
    }
}
