/**
 * What kernel authors and library users import: {@code @Kernel}, {@code @Parallel}, {@code KernelContext} and the
 * off-heap arrays. {@code dev.squall.tasks.api.spi} is exported too: it is the contract between the classes the
 * annotation processor generates into the kernel author's own packages (which implement its interfaces) and the
 * runtime that loads them; user code never calls it.
 */
module dev.squall.tasks.api {
    exports dev.squall.tasks.api;
    exports dev.squall.tasks.api.spi;
}
