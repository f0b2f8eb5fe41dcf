package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Marks a {@code public static void} method as a kernel. At build time Squall's annotation
 * processor translates it to OpenCL C, CUDA C and a JVM launcher; code outside the kernel
 * language is a compile error at the offending line.
 *
 * <pre>{@code
 * @Kernel
 * public static void scale(DoubleArray x, double a, int n) {
 *     for (@Parallel int i = 0; i < n; i++) x.set(i, a * x.get(i));
 * }
 * }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@Documented
public @interface Kernel {
}
