package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The code of a kernel made at run time, for {@link Device#compile}: OpenCL C for OpenCL devices, CUDA C for CUDA
 * devices, and a Java body for the JVM device. Any of them may be missing; compiling for a device whose backend
 * has none fails with an error naming the kernel and the device. Immutable.
 *
 * <p>The kernel function in either source takes the parameters its {@link KernelSignature} declares, in order, as
 * compiled kernels do: an array as a global pointer followed by its element count as a 64-bit integer
 * ({@code long} in OpenCL C, {@code long long} in CUDA C); a scalar by value ({@code boolean} as a 32-bit int). CUDA
 * kernels are declared {@code extern "C" __global__}.
 *
 * <pre>{@code
 * KernelSource src = KernelSource.of(
 *         "__kernel void scale(__global double* x, long x__len, double a) { size_t i = get_global_id(0); if (i < x__len) x[i] *= a; }",
 *         "extern \"C\" __global__ void scale(double* x, long long x__len, double a) { long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; if (i < x__len) x[i] *= a; }")
 *     .withJvm((item, args) -> {
 *         DoubleArray x = (DoubleArray) args[0];
 *         if (item.globalIdx < x.getSize()) x.set(item.globalIdx, x.get(item.globalIdx) * (double) args[1]);
 *     });
 * }</pre>
 */
public final class KernelSource {
    /**
     * A kernel's body on the JVM device, run once per work-item and concurrently from many threads.
     */
    @FunctionalInterface
    public interface JvmBody {
        /**
         * Runs one work-item.
         *
         * @param item the work-item's ids and sizes ({@code globalIdx}, {@code localIdx}, {@code groupIdx}, ...); for
         *             SPMD kernels declared {@link KernelSignature#withBarriers()} also local memory, barriers and
         *             sub-group operations. For loop kernels {@code globalIdx} is the iteration.
         * @param args the task's arguments in declared order: Squall arrays as themselves, scalars boxed
         *             ({@code Integer}, {@code Double}, ...)
         */
        void run(KernelContext item, Object[] args);
    }

    private final String openCl;
    private final String cuda;
    private final JvmBody jvm;

    private KernelSource(String openCl, String cuda, JvmBody jvm) {
        this.openCl = openCl;
        this.cuda = cuda;
        this.jvm = jvm;
    }

    /** OpenCL C and CUDA C for the same kernel; either may be null when that backend is not supported. */
    public static KernelSource of(String openCl, String cuda) {
        return new KernelSource(nonBlank(openCl, "OpenCL C"), nonBlank(cuda, "CUDA C"), null);
    }

    /** OpenCL C only. */
    public static KernelSource openCl(String source) {
        return of(Objects.requireNonNull(source, "OpenCL C source"), null);
    }

    /** CUDA C only. */
    public static KernelSource cuda(String source) {
        return of(null, Objects.requireNonNull(source, "CUDA C source"));
    }

    /** A Java body only (runs on the JVM device). */
    public static KernelSource jvm(JvmBody body) {
        return new KernelSource(null, null, Objects.requireNonNull(body, "JVM body"));
    }

    /** This source with a Java body for the JVM device. */
    public KernelSource withJvm(JvmBody body) {
        return new KernelSource(openCl, cuda, Objects.requireNonNull(body, "JVM body"));
    }

    /** The program text for a backend ("opencl" or "cuda"); empty when there is none. */
    public Optional<String> text(String backend) {
        return Optional.ofNullable(switch (backend) {
            case "opencl" -> openCl;
            case "cuda" -> cuda;
            default -> null;
        });
    }

    /** The body the JVM device runs; empty when there is none. */
    public Optional<JvmBody> jvmBody() {
        return Optional.ofNullable(jvm);
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (openCl != null) parts.add("OpenCL C");
        if (cuda != null) parts.add("CUDA C");
        if (jvm != null) parts.add("Java body");
        return "KernelSource" + parts;
    }

    private static String nonBlank(String s, String what) {
        if (s != null && s.isBlank()) throw new IllegalArgumentException(what + " source is blank");
        return s;
    }
}
