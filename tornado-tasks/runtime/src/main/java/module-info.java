/**
 * Squall's runtime: devices, task graphs, execution plans, kernels compiled at run time. Only
 * {@code dev.squall.tasks.runtime} is exported; the backends ({@code opencl}, {@code cuda}, {@code jvm}) and the
 * interface they implement ({@code spi}) are internal.
 *
 * <p>A module whose classes hold {@code @Kernel} methods opens their packages to this module
 * ({@code opens my.kernels to dev.squall.tasks.runtime;}): the runtime instantiates the class the annotation
 * processor generated next to them, and on the JVM device calls SPMD kernel methods reflectively. Programs on the
 * module path run with {@code --enable-native-access=dev.squall.tasks.runtime} (OpenCL and CUDA are bound through
 * {@code java.lang.foreign}).
 */
module dev.squall.tasks.runtime {
    requires transitive dev.squall.tasks.api;

    exports dev.squall.tasks.runtime;
}
