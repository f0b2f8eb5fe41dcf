package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Promises that a kernel array parameter is only read and shares no memory with any other
 * array argument. The generated code marks it {@code const restrict}, which lets CUDA route
 * loads through the read-only cache.
 *
 * <pre>{@code @Kernel static void copy(@ReadOnly DoubleArray a, DoubleArray b, int n) { ... } }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
@Documented
public @interface ReadOnly {
}
