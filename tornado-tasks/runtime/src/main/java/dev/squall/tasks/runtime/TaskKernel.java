package dev.squall.tasks.runtime;

/** What a task runs: a compiled {@code @Kernel} method ({@link KernelRef}) or a kernel compiled at run time ({@link RuntimeKernel}). */
sealed interface TaskKernel permits KernelRef, RuntimeKernel {
}
