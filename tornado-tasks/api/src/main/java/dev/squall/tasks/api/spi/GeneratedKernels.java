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
}
