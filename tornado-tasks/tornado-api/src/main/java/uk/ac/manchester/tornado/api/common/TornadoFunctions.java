package uk.ac.manchester.tornado.api.common;

import dev.squall.tasks.runtime.KernelFunctions;

/**
 * The shapes of kernels passed to {@code TaskGraph.task} as method references ({@code Compute::add}), 1 to 15
 * arguments. Each is Squall's kernel shape of the same arity, so the reference reaches Squall's runtime as it is.
 */
public final class TornadoFunctions {
    private TornadoFunctions() {
    }

    /** A kernel taking 1 argument. */
    @FunctionalInterface
    public interface Task1<T1> extends KernelFunctions.Task1<T1> {
    }

    /** A kernel taking 2 arguments. */
    @FunctionalInterface
    public interface Task2<T1, T2> extends KernelFunctions.Task2<T1, T2> {
    }

    /** A kernel taking 3 arguments. */
    @FunctionalInterface
    public interface Task3<T1, T2, T3> extends KernelFunctions.Task3<T1, T2, T3> {
    }

    /** A kernel taking 4 arguments. */
    @FunctionalInterface
    public interface Task4<T1, T2, T3, T4> extends KernelFunctions.Task4<T1, T2, T3, T4> {
    }

    /** A kernel taking 5 arguments. */
    @FunctionalInterface
    public interface Task5<T1, T2, T3, T4, T5> extends KernelFunctions.Task5<T1, T2, T3, T4, T5> {
    }

    /** A kernel taking 6 arguments. */
    @FunctionalInterface
    public interface Task6<T1, T2, T3, T4, T5, T6> extends KernelFunctions.Task6<T1, T2, T3, T4, T5, T6> {
    }

    /** A kernel taking 7 arguments. */
    @FunctionalInterface
    public interface Task7<T1, T2, T3, T4, T5, T6, T7> extends KernelFunctions.Task7<T1, T2, T3, T4, T5, T6, T7> {
    }

    /** A kernel taking 8 arguments. */
    @FunctionalInterface
    public interface Task8<T1, T2, T3, T4, T5, T6, T7, T8> extends KernelFunctions.Task8<T1, T2, T3, T4, T5, T6, T7, T8> {
    }

    /** A kernel taking 9 arguments. */
    @FunctionalInterface
    public interface Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> extends KernelFunctions.Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> {
    }

    /** A kernel taking 10 arguments. */
    @FunctionalInterface
    public interface Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> extends KernelFunctions.Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> {
    }

    /** A kernel taking 11 arguments. */
    @FunctionalInterface
    public interface Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> extends KernelFunctions.Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> {
    }

    /** A kernel taking 12 arguments. */
    @FunctionalInterface
    public interface Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> extends KernelFunctions.Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> {
    }

    /** A kernel taking 13 arguments. */
    @FunctionalInterface
    public interface Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> extends KernelFunctions.Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> {
    }

    /** A kernel taking 14 arguments. */
    @FunctionalInterface
    public interface Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> extends KernelFunctions.Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> {
    }

    /** A kernel taking 15 arguments. */
    @FunctionalInterface
    public interface Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> extends KernelFunctions.Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> {
    }
}
