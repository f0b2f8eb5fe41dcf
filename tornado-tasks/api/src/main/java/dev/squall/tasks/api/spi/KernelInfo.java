package dev.squall.tasks.api.spi;

import java.util.List;

/**
 * What the compiler knows of one kernel, for runtimes.
 *
 * @param name            the Java method name; also the kernel's name in the OpenCL C and CUDA C programs
 * @param style           loop-parallel or SPMD
 * @param parallelDims    LOOP: number of nested {@code @Parallel} loops (1..3); SPMD: 0
 * @param collective      SPMD: uses barriers or sub-group operations, so the work-items of a group must run concurrently on the JVM
 * @param parameters      the Java parameters in order
 * @param localMemoryBytes bytes of local memory the kernel declares (constant sizes)
 */
public record KernelInfo(String name, Style style, int parallelDims, boolean collective,
                         List<Param> parameters, long localMemoryBytes) {

    public enum Style { LOOP, SPMD }

    /** How a Java parameter is passed to the device program. */
    public enum Kind {
        /** {@code KernelContext}: not passed. */
        CONTEXT,
        /** A {@code KernelArray}: passed as a global pointer followed by a 64-bit element count ({@code <name>__len}). */
        ARRAY,
        /** A primitive: passed by value; {@code boolean} is passed as a 32-bit int. */
        SCALAR
    }

    /**
     * @param name     Java name
     * @param kind     how it is passed
     * @param type     element type for arrays, the primitive type for scalars ("int", "double", ...), "KernelContext" for the context
     * @param readOnly declared {@code @ReadOnly}
     */
    public record Param(String name, Kind kind, String type, boolean readOnly) {
    }
}
