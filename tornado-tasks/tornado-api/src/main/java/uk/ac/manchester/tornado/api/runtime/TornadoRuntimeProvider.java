package uk.ac.manchester.tornado.api.runtime;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;

import java.util.ArrayList;
import java.util.List;

/**
 * TornadoVM's view of the machine's devices: backends numbered from 0, each with its devices numbered from 0, written
 * {@code B:D} ({@code -Ds0.device=B:D}). Backends are Squall's with at least one device, in Squall's order (cuda,
 * opencl, jvm); {@code tornado --devices} prints the list.
 */
public final class TornadoRuntimeProvider {
    private TornadoRuntimeProvider() {
    }

    /** The devices of one backend. */
    public record TornadoBackend(int index, String name, List<TornadoDevice> devices) {
        public String getName() {
            return name;
        }

        public int getNumDevices() {
            return devices.size();
        }

        public TornadoDevice getDevice(int index) {
            if (index < 0 || index >= devices.size()) {
                throw new TornadoRuntimeException("backend " + this.index + " (" + name + ") has devices 0 to " + (devices.size() - 1) + ", not " + index);
            }
            return devices.get(index);
        }
    }

    /** The runtime: backends and the default device. */
    public static final class TornadoRuntime {
        private final List<TornadoBackend> backends;

        private TornadoRuntime(List<TornadoBackend> backends) {
            this.backends = backends;
        }

        public int getNumBackends() {
            return backends.size();
        }

        public TornadoBackend getBackend(int index) {
            if (index < 0 || index >= backends.size()) {
                throw new TornadoRuntimeException("there are backends 0 to " + (backends.size() - 1) + ", not " + index + "; tornado --devices lists them");
            }
            return backends.get(index);
        }

        /** Squall's choice: -Dsquall.device, SQUALL_DEVICE, or the best device present. */
        public TornadoDevice getDefaultDevice() {
            return of(Devices.select(null));
        }

        /** The TornadoVM name of a Squall device. */
        public TornadoDevice of(Device d) {
            for (TornadoBackend b : backends) for (TornadoDevice t : b.devices()) if (t.squallDevice().equals(d)) return t;
            throw new TornadoRuntimeException("device " + d + " is not in the device list");
        }

        /** The device written {@code B:D}. */
        public TornadoDevice device(String backendColonDevice) {
            String[] p = backendColonDevice.trim().split(":");
            try {
                if (p.length != 2) throw new NumberFormatException();
                return getBackend(Integer.parseInt(p[0])).getDevice(Integer.parseInt(p[1]));
            } catch (NumberFormatException e) {
                throw new TornadoRuntimeException("a device is written BACKEND:DEVICE (e.g. 0:0), got \"" + backendColonDevice + "\"");
            }
        }
    }

    private static volatile TornadoRuntime runtime;

    public static TornadoRuntime getTornadoRuntime() {
        TornadoRuntime r = runtime;
        if (r == null) {
            List<TornadoBackend> backends = new ArrayList<>();
            for (Devices.BackendStatus s : Devices.backends()) {
                if (s.devices().isEmpty()) continue;
                int b = backends.size();
                List<TornadoDevice> ds = new ArrayList<>();
                for (Device d : s.devices()) ds.add(new TornadoDevice(b, ds.size(), d));
                backends.add(new TornadoBackend(b, s.name(), List.copyOf(ds)));
            }
            runtime = r = new TornadoRuntime(List.copyOf(backends));
        }
        return r;
    }

    /** Prints the devices as TornadoVM numbers them, with Squall's id of each ({@code tornado --devices}). */
    public static void main(String[] args) {
        TornadoRuntime r = getTornadoRuntime();
        System.out.println("Number of Tornado backends: " + r.getNumBackends());
        for (int b = 0; b < r.getNumBackends(); b++) {
            TornadoBackend be = r.getBackend(b);
            System.out.println("Backend " + b + ": " + be.name() + " (" + be.getNumDevices() + " device" + (be.getNumDevices() == 1 ? "" : "s") + ")");
            for (TornadoDevice d : be.devices()) {
                System.out.println("  Tornado device=" + b + ":" + d.getDeviceIndex() + "  ->  squall device " + d.squallDevice().id()
                        + "  " + d.getDeviceName() + "  global memory " + (d.getMaxGlobalMemory() >> 20) + " MiB");
            }
        }
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty()) System.out.println("(" + s.name() + ": absent, " + s.unavailableReason() + ")");
        }
        System.out.println("Default device: " + r.getDefaultDevice().getBackendIndex() + ":" + r.getDefaultDevice().getDeviceIndex()
                + " (choose with -Ds0.device=B:D for graph s0, -Ds0.t0.device=B:D for its task t0)");
    }
}
