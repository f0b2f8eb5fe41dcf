package dev.squall.tasks.runtime;

import java.io.Serializable;

/**
 * Functional shapes of kernels with 1 to 22 parameters, so that {@link TaskGraph#task} takes a
 * method reference ({@code Kernels::saxpy}) and checks argument types at compile time. They are
 * {@link Serializable} because the runtime reads the referenced method from the lambda's
 * serialized form.
 */
public final class KernelFunctions {
    private KernelFunctions() {
    }

    @FunctionalInterface
    public interface Task1<A> extends Serializable {
        void apply(A a);
    }

    @FunctionalInterface
    public interface Task2<A, B> extends Serializable {
        void apply(A a, B b);
    }

    @FunctionalInterface
    public interface Task3<A, B, C> extends Serializable {
        void apply(A a, B b, C c);
    }

    @FunctionalInterface
    public interface Task4<A, B, C, D> extends Serializable {
        void apply(A a, B b, C c, D d);
    }

    @FunctionalInterface
    public interface Task5<A, B, C, D, E> extends Serializable {
        void apply(A a, B b, C c, D d, E e);
    }

    @FunctionalInterface
    public interface Task6<A, B, C, D, E, F> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f);
    }

    @FunctionalInterface
    public interface Task7<A, B, C, D, E, F, G> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g);
    }

    @FunctionalInterface
    public interface Task8<A, B, C, D, E, F, G, H> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h);
    }

    @FunctionalInterface
    public interface Task9<A, B, C, D, E, F, G, H, I> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i);
    }

    @FunctionalInterface
    public interface Task10<A, B, C, D, E, F, G, H, I, J> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j);
    }

    @FunctionalInterface
    public interface Task11<A, B, C, D, E, F, G, H, I, J, K> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k);
    }

    @FunctionalInterface
    public interface Task12<A, B, C, D, E, F, G, H, I, J, K, L> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l);
    }

    @FunctionalInterface
    public interface Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m);
    }

    @FunctionalInterface
    public interface Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n);
    }

    @FunctionalInterface
    public interface Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o);
    }

    @FunctionalInterface
    public interface Task16<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p);
    }

    @FunctionalInterface
    public interface Task17<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q);
    }

    @FunctionalInterface
    public interface Task18<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q, R r);
    }

    @FunctionalInterface
    public interface Task19<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q, R r, S s);
    }

    @FunctionalInterface
    public interface Task20<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q, R r, S s, T t);
    }

    @FunctionalInterface
    public interface Task21<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q, R r, S s, T t, U u);
    }

    @FunctionalInterface
    public interface Task22<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V> extends Serializable {
        void apply(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l, M m, N n, O o, P p, Q q, R r, S s, T t, U u, V v);
    }
}
