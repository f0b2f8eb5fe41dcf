package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelContext;

/** The {@link KernelContext} one work-item sees on the JVM. */
final class JvmWorkItem extends KernelContext {
    JvmWorkGroup group;
    private int allocations;

    void reset(JvmWorkGroup group) {
        this.group = group;
        this.allocations = 0;
    }

    @Override
    public void localBarrier() {
        group.await();
    }

    @Override
    protected Object localArray(Class<?> elementType, int size) {
        return group.local(allocations++, elementType, size);
    }

    @Override
    protected long exchange(long bits, int srcLane) {
        int me = localLinearId();
        group.exchange[me] = bits;
        group.await();
        long v = group.exchange[me - subgroupLocalId() + srcLane];
        group.await();
        return v;
    }
}
