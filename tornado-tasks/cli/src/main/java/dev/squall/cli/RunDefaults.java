package dev.squall.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The defaults of {@link RunOptions} for one command (on its class): how many timed runs {@code --repeat} means, and
 * which precisions {@code --precision} takes. Commands without it get {@code --repeat 5} and fp32/fp64 with fp64.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RunDefaults {
    /** Default of {@code --repeat}. */
    int repeat() default 5;

    /** Precisions {@code --precision} accepts; the first is the default. */
    String[] precisions() default {"fp64", "fp32"};
}
