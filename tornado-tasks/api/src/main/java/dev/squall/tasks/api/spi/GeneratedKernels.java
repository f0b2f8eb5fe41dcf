package dev.squall.tasks.api.spi;

import java.util.List;

/**
 * Implemented by the class that Squall's annotation processor generates for every class
 * holding kernels: {@code <Owner>_SquallKernels}, in the owner's package, with a public
 * no-argument constructor. Runtimes find it by name; users never call it.
 *
 * <p>The OpenCL C and CUDA C programs for all kernels of the owner are resources at
 * {@code META-INF/squall/kernels/<owner binary name>.cl} and {@code .cu}; every jar lists
 * its owners, one binary class name a line, in {@code META-INF/squall/kernels.idx}.
 */
public interface GeneratedKernels {
    /** Binary name of the class that declares the kernels. */
    String ownerClass();

    /** The kernels declared by the owner, in source order. */
    List<KernelInfo> kernels();

    /**
     * Trip counts of the kernel's parallel loops, outermost (x) first, for these arguments.
     * Only for {@link KernelInfo.Style#LOOP} kernels.
     */
    long[] tripCounts(String kernel, Object[] args);

    /**
     * Runs iterations {@code [from, to)} of the outermost parallel loop of a LOOP kernel on the
     * calling thread, with every inner loop (parallel or not) run in full.
     */
    void runRange(String kernel, Object[] args, long from, long to);

    /**
     * Whether {@link #runWorkGroups} can run this SPMD kernel: the compiler split its body at its barriers
     * and sub-group operations into loops over the work-items of a group. Kernels it could not split run
     * their work-items concurrently instead.
     */
    default boolean runsWorkGroups(String kernel) {
        return false;
    }

    /**
     * Runs work-groups {@code [from, to)} (linear, x fastest) of an SPMD kernel on the calling thread, each
     * as loops over its work-items. {@code args[0]} is the kernel's {@code KernelContext} placeholder.
     */
    default void runWorkGroups(String kernel, Object[] args, WorkGroupGrid grid, long from, long to) {
        throw new UnsupportedOperationException("kernel " + kernel + " of " + ownerClass() + " has no JVM work-group runner");
    }
}
