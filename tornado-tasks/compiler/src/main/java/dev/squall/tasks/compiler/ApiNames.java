package dev.squall.tasks.compiler;

/**
 * Qualified names of the API types and annotations the compiler recognises. The processor matches elements against
 * these exact names rather than loading the API's classes: javac runs processors in a class loader that may not see
 * the API (it is on the module path of a modular compilation). {@code ApiNamesTest} checks each name against its class.
 */
final class ApiNames {
    private ApiNames() {
    }

    static final String BYTE_ARRAY = "dev.squall.tasks.api.ByteArray";
    static final String DEVICE_FUNCTION = "dev.squall.tasks.api.DeviceFunction";
    static final String DOUBLE_ARRAY = "dev.squall.tasks.api.DoubleArray";
    static final String FLOAT_ARRAY = "dev.squall.tasks.api.FloatArray";
    static final String FP32_VARIANT = "dev.squall.tasks.api.Fp32Variant";
    static final String INT_ARRAY = "dev.squall.tasks.api.IntArray";
    static final String KERNEL = "dev.squall.tasks.api.Kernel";
    static final String KERNEL_ARRAY = "dev.squall.tasks.api.KernelArray";
    static final String KERNEL_CONTEXT = "dev.squall.tasks.api.KernelContext";
    static final String KERNEL_MATH = "dev.squall.tasks.api.KernelMath";
    static final String LAUNCH_BOUNDS = "dev.squall.tasks.api.LaunchBounds";
    static final String LONG_ARRAY = "dev.squall.tasks.api.LongArray";
    static final String NO_ALIAS = "dev.squall.tasks.api.NoAlias";
    static final String PARALLEL = "dev.squall.tasks.api.Parallel";
    static final String READ_ONLY = "dev.squall.tasks.api.ReadOnly";
    static final String SHORT_ARRAY = "dev.squall.tasks.api.ShortArray";
    static final String UNROLL = "dev.squall.tasks.api.Unroll";
}
