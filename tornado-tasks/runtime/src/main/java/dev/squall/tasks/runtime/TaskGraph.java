package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.spi.KernelInfo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A sequence of transfers and kernel launches, as in TornadoVM: stage the arrays to copy in,
 * the tasks to run, the arrays to copy out; then {@link #snapshot()} it and run it with an
 * {@link ExecutionPlan}. Scalars are captured when the task is added.
 *
 * <pre>{@code
 * TaskGraph g = new TaskGraph("s0")
 *         .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
 *         .task("t0", Kernels::scale, x, 2.0, x.getSize())
 *         .task("t1", WorkerGrid.of(n).withLocal(256), Kernels::rowSums, new KernelContext(), x, sums, n)
 *         .transferToHost(DataTransferMode.EVERY_EXECUTION, x, sums);
 * }</pre>
 */
public final class TaskGraph {
    /** One staged step. */
    sealed interface Step permits Transfer, TaskStep {
    }

    record Transfer(boolean toDevice, DataTransferMode mode, KernelArray array) implements Step {
    }

    /** A launch; {@code grid} is null when the plan or the kernel's loops give it. */
    record TaskStep(String name, TaskKernel kernel, Object[] args, WorkerGrid grid) implements Step {
    }

    private final String name;
    private final List<Step> steps = new ArrayList<>();
    private final Set<String> taskNames = new LinkedHashSet<>();

    public TaskGraph(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("a task graph needs a name");
        this.name = name;
    }

    public String name() {
        return name;
    }

    /**
     * Copies these arrays to the device before the tasks, per {@code mode}.
     *
     * @throws IllegalArgumentException for a device-only array ({@code DoubleArray.onDevice}, ...): it has no host data
     */
    public TaskGraph transferToDevice(DataTransferMode mode, Object... arrays) {
        for (Object a : arrays) {
            KernelArray k = array(a);
            if (k.isDeviceOnly()) {
                throw new IllegalArgumentException("task graph " + name + ": " + k + " is device-only: it has no host data to copy to the"
                        + " device (a kernel writes it there); make it with new " + k.getClass().getSimpleName() + "(n) to upload host data");
            }
            steps.add(new Transfer(true, mode, k));
        }
        return this;
    }

    /** Copies these arrays back after the tasks, per {@code mode}; a device-only array gets host memory for it. */
    public TaskGraph transferToHost(DataTransferMode mode, Object... arrays) {
        for (Object a : arrays) steps.add(new Transfer(false, mode, array(a)));
        return this;
    }

    /**
     * Adds a task running a kernel compiled at run time ({@link Device#compile}); the arguments are checked against
     * its {@link KernelSignature} here. SPMD kernels take their grid from {@link ExecutionPlan#withGrid} or from
     * {@link #task(String, WorkerGrid, RuntimeKernel, Object...)}.
     */
    public TaskGraph task(String name, RuntimeKernel kernel, Object... args) {
        return task(name, (WorkerGrid) null, kernel, args);
    }

    /** Adds a task running a kernel compiled at run time, on this grid (a plan's {@link ExecutionPlan#withGrid} overrides it). */
    public TaskGraph task(String name, WorkerGrid grid, RuntimeKernel kernel, Object... args) {
        if (kernel == null) throw new IllegalArgumentException("task " + name + ": the runtime kernel is null");
        return addChecked(name, grid, kernel, kernel.toString(), kernel.info(), args.clone());
    }

    public <A> TaskGraph task(String name, KernelFunctions.Task1<A> kernel, A a0) {
        return addTask(name, null, kernel, new Object[] {a0});
    }

    public <A> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task1<A> kernel, A a0) {
        return addTask(name, grid, kernel, new Object[] {a0});
    }

    public <A, B> TaskGraph task(String name, KernelFunctions.Task2<A, B> kernel, A a0, B b1) {
        return addTask(name, null, kernel, new Object[] {a0, b1});
    }

    public <A, B> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task2<A, B> kernel, A a0, B b1) {
        return addTask(name, grid, kernel, new Object[] {a0, b1});
    }

    public <A, B, C> TaskGraph task(String name, KernelFunctions.Task3<A, B, C> kernel, A a0, B b1, C c2) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2});
    }

    public <A, B, C> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task3<A, B, C> kernel, A a0, B b1, C c2) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2});
    }

    public <A, B, C, D> TaskGraph task(String name, KernelFunctions.Task4<A, B, C, D> kernel, A a0, B b1, C c2, D d3) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3});
    }

    public <A, B, C, D> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task4<A, B, C, D> kernel, A a0, B b1, C c2, D d3) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3});
    }

    public <A, B, C, D, E> TaskGraph task(String name, KernelFunctions.Task5<A, B, C, D, E> kernel, A a0, B b1, C c2, D d3, E e4) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4});
    }

    public <A, B, C, D, E> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task5<A, B, C, D, E> kernel, A a0, B b1, C c2, D d3, E e4) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4});
    }

    public <A, B, C, D, E, F> TaskGraph task(String name, KernelFunctions.Task6<A, B, C, D, E, F> kernel, A a0, B b1, C c2, D d3, E e4, F f5) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5});
    }

    public <A, B, C, D, E, F> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task6<A, B, C, D, E, F> kernel, A a0, B b1, C c2, D d3, E e4, F f5) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5});
    }

    public <A, B, C, D, E, F, G> TaskGraph task(String name, KernelFunctions.Task7<A, B, C, D, E, F, G> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6});
    }

    public <A, B, C, D, E, F, G> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task7<A, B, C, D, E, F, G> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6});
    }

    public <A, B, C, D, E, F, G, H> TaskGraph task(String name, KernelFunctions.Task8<A, B, C, D, E, F, G, H> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7});
    }

    public <A, B, C, D, E, F, G, H> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task8<A, B, C, D, E, F, G, H> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7});
    }

    public <A, B, C, D, E, F, G, H, I> TaskGraph task(String name, KernelFunctions.Task9<A, B, C, D, E, F, G, H, I> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8});
    }

    public <A, B, C, D, E, F, G, H, I> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task9<A, B, C, D, E, F, G, H, I> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8});
    }

    public <A, B, C, D, E, F, G, H, I, J> TaskGraph task(String name, KernelFunctions.Task10<A, B, C, D, E, F, G, H, I, J> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9});
    }

    public <A, B, C, D, E, F, G, H, I, J> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task10<A, B, C, D, E, F, G, H, I, J> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9});
    }

    public <A, B, C, D, E, F, G, H, I, J, K> TaskGraph task(String name, KernelFunctions.Task11<A, B, C, D, E, F, G, H, I, J, K> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10});
    }

    public <A, B, C, D, E, F, G, H, I, J, K> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task11<A, B, C, D, E, F, G, H, I, J, K> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L> TaskGraph task(String name, KernelFunctions.Task12<A, B, C, D, E, F, G, H, I, J, K, L> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task12<A, B, C, D, E, F, G, H, I, J, K, L> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M> TaskGraph task(String name, KernelFunctions.Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N> TaskGraph task(String name, KernelFunctions.Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> TaskGraph task(String name, KernelFunctions.Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> TaskGraph task(String name, KernelFunctions.Task16<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task16<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> TaskGraph task(String name, KernelFunctions.Task17<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task17<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> TaskGraph task(String name, KernelFunctions.Task18<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task18<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> TaskGraph task(String name, KernelFunctions.Task19<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task19<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> TaskGraph task(String name, KernelFunctions.Task20<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task20<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U> TaskGraph task(String name, KernelFunctions.Task21<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19, U u20) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19, u20});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task21<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19, U u20) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19, u20});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V> TaskGraph task(String name, KernelFunctions.Task22<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19, U u20, V v21) {
        return addTask(name, null, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19, u20, v21});
    }

    public <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V> TaskGraph task(String name, WorkerGrid grid, KernelFunctions.Task22<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V> kernel, A a0, B b1, C c2, D d3, E e4, F f5, G g6, H h7, I i8, J j9, K k10, L l11, M m12, N n13, O o14, P p15, Q q16, R r17, S s18, T t19, U u20, V v21) {
        return addTask(name, grid, kernel, new Object[] {a0, b1, c2, d3, e4, f5, g6, h7, i8, j9, k10, l11, m12, n13, o14, p15, q16, r17, s18, t19, u20, v21});
    }

    private TaskGraph addTask(String taskName, WorkerGrid grid, java.io.Serializable kernel, Object[] args) {
        if (kernel instanceof PrecisionTask p) return addResolved(taskName, grid, p.kernel(), toPrecision(taskName, p, args));
        return addResolved(taskName, grid, KernelRef.of(kernel), args);
    }

    private TaskGraph addResolved(String taskName, WorkerGrid grid, KernelRef ref, Object[] args) {
        return addChecked(taskName, grid, ref, ref.toString(), KernelRegistry.info(ref), args);
    }

    private TaskGraph addChecked(String taskName, WorkerGrid grid, TaskKernel kernel, String label, KernelInfo info, Object[] args) {
        if (taskName == null || taskName.isBlank()) throw new IllegalArgumentException("a task of graph " + name + " needs a name");
        if (taskNames.contains(taskName)) throw new IllegalArgumentException("task graph " + name + " already has a task " + taskName);
        checkArguments(name + "." + taskName, label, info, args);
        taskNames.add(taskName);
        steps.add(new TaskStep(taskName, kernel, args, grid));
        return this;
    }

    /**
     * Arguments of a kernel picked by precision: {@code Double} scalars become {@code Float} for an FP32 kernel's float
     * parameters; arrays are checked against the precision by the argument check that follows.
     */
    private Object[] toPrecision(String taskName, PrecisionTask p, Object[] args) {
        if (p.precision() != Precision.FP32) return args;
        var params = KernelRegistry.info(p.kernel()).parameters();
        for (int i = 0; i < args.length && i < params.size(); i++) {
            if (args[i] instanceof Double d && params.get(i).type().equals("float")
                    && params.get(i).kind() == dev.squall.tasks.api.spi.KernelInfo.Kind.SCALAR) {
                args[i] = (float) (double) d;
            }
        }
        return args;
    }

    private static KernelArray array(Object a) {
        if (a instanceof KernelArray k) return k;
        throw new IllegalArgumentException("only Squall arrays (IntArray, DoubleArray, ...) can be transferred, got "
                + (a == null ? "null" : a.getClass().getName()));
    }

    /** A frozen copy to execute. */
    public ImmutableTaskGraph snapshot() {
        return new ImmutableTaskGraph(name, List.copyOf(steps));
    }

    /** Rejects wrong argument counts and types before anything is launched. */
    private static void checkArguments(String task, String kernel, KernelInfo info, Object[] args) {
        List<KernelInfo.Param> ps = info.parameters();
        if (args.length != ps.size()) {
            throw new IllegalArgumentException("task " + task + ": kernel " + kernel + " takes " + ps.size() + " arguments "
                    + ps.stream().map(p -> p.type() + " " + p.name()).toList() + ", got " + args.length);
        }
        for (int i = 0; i < args.length; i++) {
            KernelInfo.Param p = ps.get(i);
            Object a = args[i];
            boolean ok = switch (p.kind()) {
                case CONTEXT -> a == null || a instanceof KernelContext;
                case ARRAY -> a instanceof KernelArray k && k.elementType().equals(p.type());
                case SCALAR -> a != null && switch (p.type()) {
                    case "int" -> a instanceof Integer;
                    case "long" -> a instanceof Long;
                    case "float" -> a instanceof Float;
                    case "double" -> a instanceof Double;
                    case "short" -> a instanceof Short;
                    case "byte" -> a instanceof Byte;
                    case "boolean" -> a instanceof Boolean;
                    default -> false;
                };
            };
            if (!ok) {
                String want = p.kind() == KernelInfo.Kind.ARRAY ? Character.toUpperCase(p.type().charAt(0)) + p.type().substring(1) + "Array" : p.type();
                throw new IllegalArgumentException("task " + task + ": argument " + i + " (" + p.name() + ") of " + kernel + " must be "
                        + want + ", got " + (a == null ? "null" : a.getClass().getSimpleName() + " " + a));
            }
        }
    }
}
