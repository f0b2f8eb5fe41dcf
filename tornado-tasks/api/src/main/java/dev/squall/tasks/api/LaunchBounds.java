package dev.squall.tasks.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A promise about a {@link Kernel}'s launches, so the CUDA compiler can budget registers: work-groups of at most
 * {@code maxGroupSize} work-items, and {@code minGroupsPerUnit} of them should fit on one multiprocessor at once.
 * CUDA emits {@code __launch_bounds__(maxGroupSize, minGroupsPerUnit)}: the compiler then caps the registers per
 * work-item (65,536 / (maxGroupSize x minGroupsPerUnit) on current NVIDIA GPUs), spilling if it must. OpenCL and the
 * JVM ignore it. A CUDA launch with larger groups fails with the driver's error.
 *
 * <pre>{@code
 * @Kernel
 * @LaunchBounds(maxGroupSize = 128, minGroupsPerUnit = 3)   // at most 170 registers a work-item
 * public static void tile(KernelContext ctx, DoubleArray a) { ... }
 * }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@Documented
public @interface LaunchBounds {
    /** Largest work-group the kernel is launched with. */
    int maxGroupSize();

    /** Work-groups that should be resident on one multiprocessor at once. */
    int minGroupsPerUnit() default 1;
}
