/**
 * Squall's annotation processor: translates {@code @Kernel} methods to OpenCL C, CUDA C and a JVM launcher at build
 * time. It exports nothing; javac finds it as a service (or through {@code META-INF/services} on the processor path).
 */
module dev.squall.tasks.compiler {
    requires java.compiler;
    requires jdk.compiler;
    requires dev.squall.tasks.api;

    provides javax.annotation.processing.Processor with dev.squall.tasks.compiler.KernelProcessor;
}
