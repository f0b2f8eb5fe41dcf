package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Promises that a kernel array parameter shares no memory with any other array argument, so
 * the generated code may mark it {@code restrict}. The caller keeps the promise: Squall does
 * not check it.
 *
 * <pre>{@code @Kernel static void axpy(@ReadOnly DoubleArray x, @NoAlias DoubleArray y, double a, int n) { ... } }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
@Documented
public @interface NoAlias {
}
