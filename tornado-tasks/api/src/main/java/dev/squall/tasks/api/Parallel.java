package dev.squall.tasks.api;

import java.lang.annotation.*;

/**
 * Marks a {@code for} loop variable whose iterations are independent. Up to three nested
 * parallel loops map to the x, y and z dimensions of the launch grid (outermost is x).
 * Loop bounds may use only kernel parameters and constants.
 *
 * <pre>{@code for (@Parallel int i = 0; i < n; i++) y.set(i, x.get(i)); }</pre>
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.LOCAL_VARIABLE, ElementType.TYPE_USE})
@Documented
public @interface Parallel {
}
