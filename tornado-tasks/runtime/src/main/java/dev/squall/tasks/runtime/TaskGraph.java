package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;

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
    record TaskStep(String name, KernelRef kernel, Object[] args, WorkerGrid grid) implements Step {
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

    /** Copies these arrays to the device before the tasks, per {@code mode}. */
    public TaskGraph transferToDevice(DataTransferMode mode, Object... arrays) {
        for (Object a : arrays) steps.add(new Transfer(true, mode, array(a)));
        return this;
    }

    /** Copies these arrays back after the tasks, per {@code mode}. */
    public TaskGraph transferToHost(DataTransferMode mode, Object... arrays) {
        for (Object a : arrays) steps.add(new Transfer(false, mode, array(a)));
        return this;
    }

    /** Adds a task naming the kernel by class and method, for kernels chosen at run time. */
    public TaskGraph task(String name, Class<?> owner, String kernel, Object... args) {
        return addResolved(name, null, KernelRef.of(owner, kernel), args.clone());
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

    private TaskGraph addTask(String taskName, WorkerGrid grid, java.io.Serializable kernel, Object[] args) {
        if (kernel instanceof PrecisionTask p) return addResolved(taskName, grid, p.kernel(), toPrecision(taskName, p, args));
        return addResolved(taskName, grid, KernelRef.of(kernel), args);
    }

    private TaskGraph addResolved(String taskName, WorkerGrid grid, KernelRef ref, Object[] args) {
        if (taskName == null || taskName.isBlank()) throw new IllegalArgumentException("a task of graph " + name + " needs a name");
        if (taskNames.contains(taskName)) throw new IllegalArgumentException("task graph " + name + " already has a task " + taskName);
        ExecutionPlan.checkArguments(name + "." + taskName, ref, KernelRegistry.info(ref), args);
        taskNames.add(taskName);
        steps.add(new TaskStep(taskName, ref, args, grid));
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
}
