package uk.ac.manchester.tornado.api.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a loop variable whose iterations run in parallel: {@code for (@Parallel int i = 0; i < n; i++)}. */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.LOCAL_VARIABLE, ElementType.TYPE_USE})
public @interface Parallel {
}
