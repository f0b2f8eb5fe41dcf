package uk.ac.manchester.tornado.api.common;

import dev.squall.tasks.runtime.Device;

/** A device, as TornadoVM names it: backend index and device index ({@code B:D}), over a Squall {@link Device}. */
public final class TornadoDevice {
    private final int backendIndex, deviceIndex;
    private final Device device;

    public TornadoDevice(int backendIndex, int deviceIndex, Device device) {
        this.backendIndex = backendIndex;
        this.deviceIndex = deviceIndex;
        this.device = device;
    }

    /** The Squall device. */
    public Device squallDevice() {
        return device;
    }

    public String getDeviceName() {
        return device.info().name();
    }

    public String getDescription() {
        return device.info().name() + " (" + device.id() + ")";
    }

    public String getPlatformName() {
        return device.info().backend();
    }

    public long getMaxGlobalMemory() {
        return device.info().globalMemoryBytes();
    }

    public long getMaxLocalMemory() {
        return device.info().localMemoryBytes();
    }

    public int getBackendIndex() {
        return backendIndex;
    }

    public int getDeviceIndex() {
        return deviceIndex;
    }

    @Override
    public String toString() {
        return backendIndex + ":" + deviceIndex + " " + getDescription();
    }
}
