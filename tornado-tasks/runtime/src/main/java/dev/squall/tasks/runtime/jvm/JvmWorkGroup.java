package dev.squall.tasks.runtime.jvm;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/** State a work-group's items share on the JVM: local arrays, the barrier, the sub-group exchange slots. */
final class JvmWorkGroup {
    final int size;
    private final List<Object> locals = new ArrayList<>();
    final CyclicBarrier barrier; // null when items run one after another (no barriers in the kernel)
    /** Sub-group exchange slots, two sets used alternately so one barrier per exchange suffices. */
    final long[][] exchange;

    JvmWorkGroup(int size, boolean concurrent) {
        this.size = size;
        this.barrier = concurrent ? new CyclicBarrier(size) : null;
        this.exchange = concurrent ? new long[2][size] : null;
    }

    /** The group's {@code index}-th local array, created by the first item that reaches that allocation. */
    synchronized Object local(int index, Class<?> type, int length) {
        while (locals.size() <= index) locals.add(null);
        Object a = locals.get(index);
        if (a == null) {
            a = Array.newInstance(type, length);
            locals.set(index, a);
        } else if (Array.getLength(a) != length || a.getClass().getComponentType() != type) {
            throw new IllegalStateException("work-items of one group allocated local memory in different orders or sizes");
        }
        return a;
    }

    void await() {
        if (barrier == null) {
            throw new IllegalStateException("kernel uses a barrier but was not compiled as collective");
        }
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("work-item interrupted at a barrier", e);
        } catch (BrokenBarrierException e) {
            throw new GroupAbortedException();
        }
    }

    /** Thrown in the other items of a group when one of them failed. */
    static final class GroupAbortedException extends RuntimeException {
        GroupAbortedException() {
            super("another work-item of the group failed", null, false, false);
        }
    }
}
