package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Marks a non-private static helper that kernels of the same class may call. It is translated
 * with the kernels; it must not recurse, directly or through other helpers.
 *
 * <pre>{@code
 * @DeviceFunction
 * static double sq(double v) { return v * v; }
 * }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@Documented
public @interface DeviceFunction {
}
