package dev.squall.permanent.codegen;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.reflect.Method;

/**
 * The backend device behind a {@link Device}, for launching generated source. Workaround:
 * {@code Device.nativeDevice()} is package-private in squall-runtime (reported to its owner); it is
 * reached by reflection, which works because Squall runs on the class path (unnamed module).
 */
final class NativeDeviceAccess {
    private NativeDeviceAccess() {
    }

    static NativeDevice of(Device d) {
        if (d.isJvm()) throw new IllegalArgumentException("generated kernels need a CUDA or OpenCL device, not " + d.id());
        try {
            Method m = Device.class.getDeclaredMethod("nativeDevice");
            m.setAccessible(true);
            return (NativeDevice) m.invoke(d);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new DeviceException(DeviceException.Kind.UNAVAILABLE, "cannot reach the native device of " + d.id() + ": " + e);
        }
    }
}
