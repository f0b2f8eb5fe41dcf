package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.runtime.spi.NativeBackend;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.util.List;

/** The JVM as a backend: one device, {@code jvm}, always present. */
public final class JvmBackend implements NativeBackend {
    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public List<NativeDevice> discover() {
        return List.of(new JvmDevice());
    }
}
