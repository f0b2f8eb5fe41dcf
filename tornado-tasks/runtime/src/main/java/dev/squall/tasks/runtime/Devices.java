package dev.squall.tasks.runtime;

import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.spi.NativeBackend;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.util.*;

/**
 * The devices of this machine, discovered once per process: CUDA GPUs ({@code cuda:N}), OpenCL
 * devices ({@code opencl:P:D}) and the JVM ({@code jvm}). A missing driver makes its backend
 * absent, with the reason in {@link #backends()}; it never crashes.
 *
 * <pre>{@code
 * Device d = Devices.select(null);          // -Dsquall.device, SQUALL_DEVICE, else best available
 * for (Device x : Devices.all()) System.out.println(x);
 * }</pre>
 */
public final class Devices {
    /** Backends by name and class, tried in order; each is optional (the JVM's is always there). */
    private static final String[][] BACKENDS = {
            {"cuda", "dev.squall.tasks.runtime.cuda.CudaBackend"},
            {"opencl", "dev.squall.tasks.runtime.opencl.OpenClBackend"},
            {"jvm", "dev.squall.tasks.runtime.jvm.JvmBackend"},
    };

    /** What discovery found for one backend: its devices, or why it is absent. */
    public record BackendStatus(String name, List<Device> devices, String unavailableReason) {
    }

    private static volatile List<BackendStatus> backends;

    private Devices() {
    }

    /** Every backend with its devices or the reason it is absent (cuda, opencl, jvm). */
    public static List<BackendStatus> backends() {
        List<BackendStatus> b = backends;
        if (b == null) {
            synchronized (Devices.class) {
                if (backends == null) backends = discover();
                b = backends;
            }
        }
        return b;
    }

    /** Every device present, GPUs first, the JVM last. */
    public static List<Device> all() {
        List<Device> all = new ArrayList<>();
        for (BackendStatus s : backends()) all.addAll(s.devices());
        all.sort(Comparator.comparingInt(Devices::rank));
        return all;
    }

    /** The JVM device (always present). */
    public static Device jvm() {
        return get("jvm");
    }

    /**
     * The device with this id ({@code cuda:0}, {@code opencl:0:1}, {@code jvm}); also accepts
     * {@code cuda} / {@code opencl} for the first device of that backend.
     *
     * @throws DeviceException naming the devices present, or why the backend is absent
     */
    public static Device get(String id) {
        String want = id.strip().toLowerCase(Locale.ROOT);
        for (BackendStatus s : backends()) {
            for (Device d : s.devices()) {
                if (d.id().equals(want) || (want.equals(s.name()) && d == s.devices().get(0))) return d;
            }
        }
        String backend = want.contains(":") ? want.substring(0, want.indexOf(':')) : want;
        for (BackendStatus s : backends()) {
            if (s.name().equals(backend) && s.unavailableReason() != null) {
                throw new DeviceException(DeviceException.Kind.UNAVAILABLE, "device " + id + " is not available: " + s.unavailableReason());
            }
        }
        throw new DeviceException(DeviceException.Kind.NOT_FOUND, "no device " + id + "; devices present: "
                + all().stream().map(Device::id).toList());
    }

    /**
     * The device to use: {@code explicit} if given, else {@code -Dsquall.device}, else
     * {@code SQUALL_DEVICE}, else the best present (CUDA GPU, OpenCL GPU, OpenCL CPU, JVM).
     */
    public static Device select(String explicit) {
        String id = explicit;
        if (id == null || id.isBlank()) id = System.getProperty("squall.device");
        if (id == null || id.isBlank()) id = System.getenv("SQUALL_DEVICE");
        if (id == null || id.isBlank()) return all().get(0);
        return get(id);
    }

    private static int rank(Device d) {
        DeviceInfo i = d.info();
        return switch (i.type()) {
            case GPU -> i.backend().equals("cuda") ? 0 : 1;
            case CPU, ACCELERATOR -> 2;
            case JVM -> 3;
        };
    }

    private static List<BackendStatus> discover() {
        List<BackendStatus> out = new ArrayList<>();
        for (String[] b : BACKENDS) {
            String name = b[0], cls = b[1];
            NativeBackend backend;
            try {
                backend = (NativeBackend) Class.forName(cls).getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                out.add(new BackendStatus(name, List.of(), "backend not built into this Squall (" + e + ")"));
                continue;
            }
            try {
                List<Device> devs = new ArrayList<>();
                for (NativeDevice nd : backend.discover()) devs.add(new Device(nd));
                out.add(new BackendStatus(backend.name(), List.copyOf(devs), devs.isEmpty() ? "no devices" : null));
            } catch (BackendUnavailableException e) {
                out.add(new BackendStatus(backend.name(), List.of(), e.getMessage()));
            } catch (RuntimeException | LinkageError e) {
                out.add(new BackendStatus(backend.name(), List.of(), "discovery failed: " + e));
            }
        }
        return List.copyOf(out);
    }
}
