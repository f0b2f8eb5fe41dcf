package dev.squall.tasks.runtime;

import java.io.Serializable;

/**
 * Typed handles on kernels written once in double precision with an {@code @Fp32Variant} twin: a handle holds
 * both method references and {@link #at} picks the one of a {@link Precision}, so a module launches either
 * precision through one typed call. Precision-dependent parameters are typed {@code KernelArray} (a
 * {@code DoubleArray} for FP64, a {@code FloatArray} for FP32) and {@code Double} (passed as float to the FP32
 * kernel); a {@link TaskGraph} checks the arrays against the precision when the task is added.
 *
 * <p>The compiler generates the handles: for {@code @Fp32Variant(value = "AxpyF32", handles = "Axpy")} on
 * {@code AxpyF64}, the class {@code Axpy} holds one static field per kernel.
 *
 * <pre>{@code
 * // generated: public static final KernelVariants.Of4<KernelArray, KernelArray, Double, Integer> axpy = ...;
 * graph.task("axpy", Axpy.axpy.at(precision), x, y, 2.0, n);
 * }</pre>
 */
public final class KernelVariants {
    private KernelVariants() {
    }

    /** A kernel of 1 parameter in both precisions. */
    public record Of1<A>(KernelFunctions.Task1<?> fp64, KernelFunctions.Task1<?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task1<A> at(Precision p) {
            return (KernelFunctions.Task1<A>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 2 parameters in both precisions. */
    public record Of2<A, B>(KernelFunctions.Task2<?, ?> fp64, KernelFunctions.Task2<?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task2<A, B> at(Precision p) {
            return (KernelFunctions.Task2<A, B>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 3 parameters in both precisions. */
    public record Of3<A, B, C>(KernelFunctions.Task3<?, ?, ?> fp64, KernelFunctions.Task3<?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task3<A, B, C> at(Precision p) {
            return (KernelFunctions.Task3<A, B, C>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 4 parameters in both precisions. */
    public record Of4<A, B, C, D>(KernelFunctions.Task4<?, ?, ?, ?> fp64, KernelFunctions.Task4<?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task4<A, B, C, D> at(Precision p) {
            return (KernelFunctions.Task4<A, B, C, D>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 5 parameters in both precisions. */
    public record Of5<A, B, C, D, E>(KernelFunctions.Task5<?, ?, ?, ?, ?> fp64, KernelFunctions.Task5<?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task5<A, B, C, D, E> at(Precision p) {
            return (KernelFunctions.Task5<A, B, C, D, E>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 6 parameters in both precisions. */
    public record Of6<A, B, C, D, E, F>(KernelFunctions.Task6<?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task6<?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task6<A, B, C, D, E, F> at(Precision p) {
            return (KernelFunctions.Task6<A, B, C, D, E, F>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 7 parameters in both precisions. */
    public record Of7<A, B, C, D, E, F, G>(KernelFunctions.Task7<?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task7<?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task7<A, B, C, D, E, F, G> at(Precision p) {
            return (KernelFunctions.Task7<A, B, C, D, E, F, G>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 8 parameters in both precisions. */
    public record Of8<A, B, C, D, E, F, G, H>(KernelFunctions.Task8<?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task8<?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task8<A, B, C, D, E, F, G, H> at(Precision p) {
            return (KernelFunctions.Task8<A, B, C, D, E, F, G, H>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 9 parameters in both precisions. */
    public record Of9<A, B, C, D, E, F, G, H, I>(KernelFunctions.Task9<?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task9<?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task9<A, B, C, D, E, F, G, H, I> at(Precision p) {
            return (KernelFunctions.Task9<A, B, C, D, E, F, G, H, I>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 10 parameters in both precisions. */
    public record Of10<A, B, C, D, E, F, G, H, I, J>(KernelFunctions.Task10<?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task10<?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task10<A, B, C, D, E, F, G, H, I, J> at(Precision p) {
            return (KernelFunctions.Task10<A, B, C, D, E, F, G, H, I, J>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 11 parameters in both precisions. */
    public record Of11<A, B, C, D, E, F, G, H, I, J, K>(KernelFunctions.Task11<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task11<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task11<A, B, C, D, E, F, G, H, I, J, K> at(Precision p) {
            return (KernelFunctions.Task11<A, B, C, D, E, F, G, H, I, J, K>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 12 parameters in both precisions. */
    public record Of12<A, B, C, D, E, F, G, H, I, J, K, L>(KernelFunctions.Task12<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task12<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task12<A, B, C, D, E, F, G, H, I, J, K, L> at(Precision p) {
            return (KernelFunctions.Task12<A, B, C, D, E, F, G, H, I, J, K, L>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 13 parameters in both precisions. */
    public record Of13<A, B, C, D, E, F, G, H, I, J, K, L, M>(KernelFunctions.Task13<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task13<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> at(Precision p) {
            return (KernelFunctions.Task13<A, B, C, D, E, F, G, H, I, J, K, L, M>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 14 parameters in both precisions. */
    public record Of14<A, B, C, D, E, F, G, H, I, J, K, L, M, N>(KernelFunctions.Task14<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task14<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> at(Precision p) {
            return (KernelFunctions.Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }

    /** A kernel of 15 parameters in both precisions. */
    public record Of15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O>(KernelFunctions.Task15<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp64, KernelFunctions.Task15<?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?> fp32) {
        /** The kernel of precision {@code p}, to pass to {@link TaskGraph#task}. */
        @SuppressWarnings("unchecked")
        public KernelFunctions.Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> at(Precision p) {
            return (KernelFunctions.Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O>) (Object) PrecisionTask.of(p, p.pick(fp64, fp32));
        }
    }
}
