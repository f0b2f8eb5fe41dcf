package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Asks the device compiler to unroll a sequential {@code for} loop: fully ({@code @Unroll}) or by a factor
 * ({@code @Unroll(4)}). A fully unrolled loop with constant bounds lets private arrays indexed by its variable
 * stay in registers. It is a hint (CUDA and OpenCL {@code #pragma unroll}); the JVM ignores it. On OpenCL devices other
 * than NVIDIA's, a loop whose body synchronises the work-group (barriers, sub-group operations: exchanges between
 * barriers there) is left rolled, since compilers that split work-groups at barriers (PoCL) slow down sharply with
 * their number.
 *
 * <pre>{@code
 * double[] acc = new double[4];
 * for (@Unroll int r = 0; r < 4; r++) acc[r] += a.get(row + r) * b;
 * }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.LOCAL_VARIABLE, ElementType.TYPE_USE})
@Documented
public @interface Unroll {
    /** Unroll factor; 0 (the default) unrolls completely. */
    int value() default 0;
}
