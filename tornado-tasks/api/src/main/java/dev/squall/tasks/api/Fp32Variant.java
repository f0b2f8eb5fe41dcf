package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Asks the compiler for a single-precision twin of this kernel class: a class named {@link #value()} in the
 * same package holding every {@code @Kernel} and {@code @DeviceFunction} with {@code double} turned into
 * {@code float} ({@code DoubleArray} into {@code FloatArray}, double literals and constants into float,
 * {@code Math.sqrt/exp/log/sin/cos/pow/fma} into {@link KernelMath}, other {@code Math} functions cast to float).
 * Write the kernels once, in double; the twin is generated source, compiled and translated like any kernel class.
 *
 * <p>The compiler also generates typed handles on both precisions, a class named {@link #handles()} with one
 * static field per kernel, so that a caller picks the precision at run time and still passes typed arguments
 * ({@code DoubleArray} parameters become {@code KernelArray}, {@code double} ones {@code Double}); this needs
 * {@code squall-runtime} on the class path, where the handle types live.
 *
 * <pre>{@code
 * @Fp32Variant("AxpyF32")
 * public final class AxpyF64 {
 *     @Kernel
 *     public static void axpy(@ReadOnly DoubleArray x, DoubleArray y, double a, int n) {
 *         for (@Parallel int i = 0; i < n; i++) y.set(i, a * x.get(i) + y.get(i));
 *     }
 * }
 * // elsewhere: new TaskGraph("g").task("t", AxpyF32::axpy, xf, yf, 2f, n)
 * //       or, precision chosen at run time: .task("t", AxpyF64Variants.axpy.at(precision), x, y, 2.0, n)
 * }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
@Documented
public @interface Fp32Variant {
    /** Simple name of the generated class, in the annotated class's package. */
    String value();

    /** Simple name of the generated class of typed handles on both precisions; empty: the owner's name + {@code Variants}. */
    String handles() default "";
}
