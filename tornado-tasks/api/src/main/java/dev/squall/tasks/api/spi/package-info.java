/**
 * The contract between Squall's annotation processor and its runtime: the processor generates, next to every class
 * holding kernels and in that class's package, a {@link dev.squall.tasks.api.spi.GeneratedKernels} implementation
 * described by {@link dev.squall.tasks.api.spi.KernelInfo}; the runtime loads it by name. It is exported because the
 * generated classes live in the kernel author's module and must implement it; kernel authors and library users never
 * call it (the runtime's public API is {@code dev.squall.tasks.runtime}).
 */
package dev.squall.tasks.api.spi;
