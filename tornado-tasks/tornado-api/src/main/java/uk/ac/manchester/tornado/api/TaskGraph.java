package uk.ac.manchester.tornado.api;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.HeapArrays;
import dev.squall.tasks.runtime.KernelFunctions;
import uk.ac.manchester.tornado.api.common.TornadoFunctions;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.exceptions.TornadoBailoutRuntimeException;
import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;
import uk.ac.manchester.tornado.api.types.arrays.TornadoNativeArray;
import uk.ac.manchester.tornado.api.types.collections.VectorFloat4;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DDouble;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DFloat;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DInt;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * TornadoVM's task graph on Squall's: data to copy in, tasks (static methods, each a kernel translated when the program
 * was built), data to copy out. Arguments may be TornadoVM's off-heap arrays, Java arrays of primitives (copied through a
 * Squall array that stands for each, see {@link HeapArrays}), scalars and a {@link KernelContext}. Scalars and contexts
 * listed in {@code transferToDevice} are accepted and ignored, as in TornadoVM.
 */
public class TaskGraph {
    /** A transfer of a Java array, kept in step with the Squall array standing for it by the plan (off the JVM). */
    record HeapTransfer(Object heap, KernelArray mirror, int mode) {
    }

    /** The Squall array standing for each Java array passed to any graph (one per array, for as long as it is reachable). */
    private static final Map<Object, KernelArray> MIRRORS = Collections.synchronizedMap(new WeakHashMap<>());

    private final String name;
    private final dev.squall.tasks.runtime.TaskGraph squall;
    final List<HeapTransfer> heapToDevice = new ArrayList<>(), heapToHost = new ArrayList<>();
    final List<String> taskNames = new ArrayList<>();
    /** Tasks with a {@code @Reduce} parameter: their two stages run on grids the compiler chose. */
    final java.util.Set<String> reductions = new java.util.HashSet<>();

    public TaskGraph(String name) {
        if (name == null || name.isBlank()) throw new TornadoRuntimeException("a task graph needs a name");
        this.name = name;
        this.squall = new dev.squall.tasks.runtime.TaskGraph(name);
    }

    public String getTaskGraphName() {
        return name;
    }

    /** Copies these objects to the device before the tasks, per {@code mode} ({@link DataTransferMode}). */
    public TaskGraph transferToDevice(int mode, Object... objects) {
        for (Object o : objects) {
            KernelArray a = deviceArray(o, "transferToDevice");
            if (a == null) continue;
            if (o.getClass().isArray()) heapToDevice.add(new HeapTransfer(o, a, mode));
            squall.transferToDevice(mode(mode), a);
        }
        return this;
    }

    /** Copies these objects to the host after the tasks, per {@code mode} ({@link DataTransferMode}). */
    public TaskGraph transferToHost(int mode, Object... objects) {
        for (Object o : objects) {
            KernelArray a = deviceArray(o, "transferToHost");
            if (a == null) continue;
            if (o.getClass().isArray()) heapToHost.add(new HeapTransfer(o, a, mode));
            squall.transferToHost(mode(mode), a);
        }
        return this;
    }

    public <T1> TaskGraph task(String id, TornadoFunctions.Task1<T1> code, T1 a1) {
        return add(id, code, a1);
    }

    public <T1, T2> TaskGraph task(String id, TornadoFunctions.Task2<T1, T2> code, T1 a1, T2 a2) {
        return add(id, code, a1, a2);
    }

    public <T1, T2, T3> TaskGraph task(String id, TornadoFunctions.Task3<T1, T2, T3> code, T1 a1, T2 a2, T3 a3) {
        return add(id, code, a1, a2, a3);
    }

    public <T1, T2, T3, T4> TaskGraph task(String id, TornadoFunctions.Task4<T1, T2, T3, T4> code, T1 a1, T2 a2, T3 a3, T4 a4) {
        return add(id, code, a1, a2, a3, a4);
    }

    public <T1, T2, T3, T4, T5> TaskGraph task(String id, TornadoFunctions.Task5<T1, T2, T3, T4, T5> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5) {
        return add(id, code, a1, a2, a3, a4, a5);
    }

    public <T1, T2, T3, T4, T5, T6> TaskGraph task(String id, TornadoFunctions.Task6<T1, T2, T3, T4, T5, T6> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6) {
        return add(id, code, a1, a2, a3, a4, a5, a6);
    }

    public <T1, T2, T3, T4, T5, T6, T7> TaskGraph task(String id, TornadoFunctions.Task7<T1, T2, T3, T4, T5, T6, T7> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8> TaskGraph task(String id, TornadoFunctions.Task8<T1, T2, T3, T4, T5, T6, T7, T8> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9> TaskGraph task(String id, TornadoFunctions.Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> TaskGraph task(String id, TornadoFunctions.Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> TaskGraph task(String id, TornadoFunctions.Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> TaskGraph task(String id, TornadoFunctions.Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> TaskGraph task(String id, TornadoFunctions.Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> TaskGraph task(String id, TornadoFunctions.Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14);
    }

    public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> TaskGraph task(String id, TornadoFunctions.Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15) {
        return add(id, code, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
    }

    /** A frozen copy to run with a {@link TornadoExecutionPlan}. */
    public ImmutableTaskGraph snapshot() {
        return new ImmutableTaskGraph(this, squall.snapshot());
    }

    private TaskGraph add(String id, Serializable code, Object... args) {
        try {
            RewrittenTasks.Added added = RewrittenTasks.add(squall, id, code, args, o -> argument(o, id));
            if (added != RewrittenTasks.Added.NOTHING) {
                taskNames.add(id);
                if (added == RewrittenTasks.Added.REDUCTION) reductions.add(id);
                return this;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new TornadoRuntimeException("task " + name + "." + id + ": " + e.getMessage(), e);
        }
        Object[] a = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            Object o = args[i];
            if (o instanceof KernelContext || o instanceof Number || o instanceof Boolean) a[i] = o;
            else {
                a[i] = deviceArray(o, "task " + id);
                if (a[i] == null) throw new TornadoRuntimeException("task " + name + "." + id + ": argument " + i + " is " + describe(o));
            }
        }
        try {
            switch (a.length) {
                case 1 -> squall.task(id, (KernelFunctions.Task1) code, a[0]);
                case 2 -> squall.task(id, (KernelFunctions.Task2) code, a[0], a[1]);
                case 3 -> squall.task(id, (KernelFunctions.Task3) code, a[0], a[1], a[2]);
                case 4 -> squall.task(id, (KernelFunctions.Task4) code, a[0], a[1], a[2], a[3]);
                case 5 -> squall.task(id, (KernelFunctions.Task5) code, a[0], a[1], a[2], a[3], a[4]);
                case 6 -> squall.task(id, (KernelFunctions.Task6) code, a[0], a[1], a[2], a[3], a[4], a[5]);
                case 7 -> squall.task(id, (KernelFunctions.Task7) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
                case 8 -> squall.task(id, (KernelFunctions.Task8) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
                case 9 -> squall.task(id, (KernelFunctions.Task9) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
                case 10 -> squall.task(id, (KernelFunctions.Task10) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
                case 11 -> squall.task(id, (KernelFunctions.Task11) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
                case 12 -> squall.task(id, (KernelFunctions.Task12) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
                case 13 -> squall.task(id, (KernelFunctions.Task13) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]);
                case 14 -> squall.task(id, (KernelFunctions.Task14) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
                case 15 -> squall.task(id, (KernelFunctions.Task15) code, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]);
                default -> throw new TornadoRuntimeException("task " + name + "." + id + " has " + a.length + " arguments; at most 15 are supported");
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("_SquallKernels") || m.contains("no kernel") || m.contains("not compiled")) {
                throw new TornadoBailoutRuntimeException("task " + name + "." + id + " has no translated kernel: build the program with "
                        + "squall-compiler as an annotation processor (<proc>full</proc>); " + m, e);
            }
            throw new TornadoRuntimeException("task " + name + "." + id + ": " + m, e);
        }
        taskNames.add(id);
        return this;
    }

    /** A task argument as Squall's runtime takes it: scalars and contexts as they are, arrays as the Squall array holding their data. */
    private Object argument(Object o, String id) {
        if (o instanceof KernelContext || o instanceof Number || o instanceof Boolean) return o;
        KernelArray k = deviceArray(o, "task " + id);
        if (k == null) throw new TornadoRuntimeException("task " + name + "." + id + ": cannot pass " + describe(o));
        return k;
    }

    /**
     * The Squall array holding {@code o}'s data on devices: a TornadoVM array's own, or the one standing for a Java array;
     * null for scalars and contexts (TornadoVM accepts them in transfers and copies nothing).
     */
    static KernelArray deviceArray(Object o, String where) {
        if (o instanceof TornadoNativeArray t) return t.squallArray();
        if (o instanceof Matrix2DFloat m) return m.getArray().squallArray();
        if (o instanceof Matrix2DDouble m) return m.getArray().squallArray();
        if (o instanceof Matrix2DInt m) return m.getArray().squallArray();
        if (o instanceof VectorFloat4 v) return v.getArray().squallArray();
        if (o instanceof KernelArray k) return k;
        if (o instanceof Number || o instanceof Boolean || o instanceof KernelContext) return null;
        if (o instanceof float[] || o instanceof double[] || o instanceof int[] || o instanceof long[] || o instanceof short[] || o instanceof byte[]) {
            return MIRRORS.computeIfAbsent(o, TaskGraph::mirror);
        }
        throw new TornadoRuntimeException(where + ": cannot pass " + describe(o) + "; kernels take TornadoVM's arrays (FloatArray, ...), "
                + "Java arrays of float, double, int, long, short or byte, scalars and a KernelContext");
    }

    private static KernelArray mirror(Object heap) {
        KernelArray m = switch (heap) {
            case float[] f -> new dev.squall.tasks.api.FloatArray(f.length);
            case double[] d -> new dev.squall.tasks.api.DoubleArray(d.length);
            case int[] i -> new dev.squall.tasks.api.IntArray(i.length);
            case long[] l -> new dev.squall.tasks.api.LongArray(l.length);
            case short[] s -> new dev.squall.tasks.api.ShortArray(s.length);
            case byte[] b -> new dev.squall.tasks.api.ByteArray(b.length);
            default -> throw new IllegalArgumentException(describe(heap));
        };
        HeapArrays.register(m, heap);
        return m;
    }

    /** Copies a Java array into the Squall array standing for it. */
    static void toMirror(Object heap, KernelArray mirror) {
        switch (heap) {
            case float[] f -> java.lang.foreign.MemorySegment.copy(f, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, f.length);
            case double[] d -> java.lang.foreign.MemorySegment.copy(d, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, d.length);
            case int[] i -> java.lang.foreign.MemorySegment.copy(i, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_INT, 0, i.length);
            case long[] l -> java.lang.foreign.MemorySegment.copy(l, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_LONG, 0, l.length);
            case short[] s -> java.lang.foreign.MemorySegment.copy(s, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_SHORT, 0, s.length);
            case byte[] b -> java.lang.foreign.MemorySegment.copy(b, 0, mirror.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, b.length);
            default -> throw new IllegalArgumentException(describe(heap));
        }
    }

    /** Copies the Squall array standing for a Java array back into it. */
    static void fromMirror(KernelArray mirror, Object heap) {
        switch (heap) {
            case float[] f -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, f, 0, f.length);
            case double[] d -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, d, 0, d.length);
            case int[] i -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_INT, 0, i, 0, i.length);
            case long[] l -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_LONG, 0, l, 0, l.length);
            case short[] s -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_SHORT, 0, s, 0, s.length);
            case byte[] b -> java.lang.foreign.MemorySegment.copy(mirror.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, b, 0, b.length);
            default -> throw new IllegalArgumentException(describe(heap));
        }
    }

    private static String describe(Object o) {
        return o == null ? "null" : "a " + o.getClass().getTypeName();
    }

    private static dev.squall.tasks.runtime.DataTransferMode mode(int mode) {
        return switch (mode) {
            case DataTransferMode.FIRST_EXECUTION -> dev.squall.tasks.runtime.DataTransferMode.FIRST_EXECUTION;
            case DataTransferMode.EVERY_EXECUTION -> dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION;
            case DataTransferMode.UNDER_DEMAND -> dev.squall.tasks.runtime.DataTransferMode.UNDER_DEMAND;
            default -> throw new TornadoRuntimeException("unknown data transfer mode " + mode + "; use DataTransferMode.FIRST_EXECUTION, "
                    + "EVERY_EXECUTION or UNDER_DEMAND");
        };
    }
}
