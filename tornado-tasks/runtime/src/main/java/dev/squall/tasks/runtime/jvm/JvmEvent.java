package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.runtime.spi.DeviceEvent;

/** A point in the JVM device's queue: the host clock, since every command runs to completion when issued. */
record JvmEvent(long nanos) implements DeviceEvent {
    @Override
    public double millisSince(DeviceEvent earlier) {
        return (nanos - ((JvmEvent) earlier).nanos) / 1e6;
    }

    @Override
    public void release() {
    }
}
