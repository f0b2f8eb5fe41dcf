package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelContext;

/** The {@link KernelContext} one work-item sees on the JVM. */
final class JvmWorkItem extends KernelContext {
    JvmWorkGroup group;
    private int allocations;

    private int exchanges;

    void reset(JvmWorkGroup group) {
        this.group = group;
        this.allocations = 0;
        this.exchanges = 0;
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
        // every item of the group makes the same exchanges in the same order, so the parity agrees; the set written
        // now is written again only two exchanges later, after a barrier every reader of this one has passed
        long[] slots = group.exchange[exchanges++ & 1];
        int me = localLinearId();
        slots[me] = bits;
        group.await();
        return slots[me - subgroupLocalId() + srcLane];
    }
}
