package dev.squall.tasks.compiler;

/**
 * Qualified names of the TornadoVM API types the compiler recognises in TornadoVM programs (the
 * {@code uk.ac.manchester.tornado.api} subset that {@code squall-tornado-api} provides): the task-graph class whose
 * {@code task(...)} calls make methods kernels, its kernel context, annotations, arrays and maths. Matched by name, like
 * {@link ApiNames}, without loading the classes; {@code TornadoNamesTest} in the compatibility module checks each name.
 */
final class TornadoNames {
    private TornadoNames() {
    }

    static final String PACKAGE = "uk.ac.manchester.tornado.api";
    static final String TASK_GRAPH = "uk.ac.manchester.tornado.api.TaskGraph";
    static final String KERNEL_CONTEXT = "uk.ac.manchester.tornado.api.KernelContext";
    static final String PARALLEL = "uk.ac.manchester.tornado.api.annotations.Parallel";
    static final String REDUCE = "uk.ac.manchester.tornado.api.annotations.Reduce";
    static final String TORNADO_MATH = "uk.ac.manchester.tornado.api.math.TornadoMath";
    static final String NATIVE_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.TornadoNativeArray";
    static final String INT_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.IntArray";
    static final String LONG_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.LongArray";
    static final String FLOAT_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.FloatArray";
    static final String DOUBLE_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.DoubleArray";
    static final String SHORT_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.ShortArray";
    static final String BYTE_ARRAY = "uk.ac.manchester.tornado.api.types.arrays.ByteArray";
}
