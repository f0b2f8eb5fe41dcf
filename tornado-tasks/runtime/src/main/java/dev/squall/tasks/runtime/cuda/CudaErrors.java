package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;

/** Turns {@code CUresult} codes into names, texts and {@link DeviceException}s. */
final class CudaErrors {
    static final int CUDA_SUCCESS = 0;
    static final int CUDA_ERROR_INVALID_VALUE = 1;
    static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    static final int CUDA_ERROR_NOT_INITIALIZED = 3;
    static final int CUDA_ERROR_STUB_LIBRARY = 34;
    static final int CUDA_ERROR_DEVICE_UNAVAILABLE = 46;
    static final int CUDA_ERROR_NO_DEVICE = 100;
    static final int CUDA_ERROR_INVALID_PTX = 218;
    static final int CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
    static final int CUDA_ERROR_NOT_FOUND = 500;
    static final int CUDA_ERROR_NOT_READY = 600;
    static final int CUDA_ERROR_ILLEGAL_ADDRESS = 700;
    static final int CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
    static final int CUDA_ERROR_LAUNCH_TIMEOUT = 702;
    static final int CUDA_ERROR_LAUNCH_FAILED = 719;

    /** Names for when cuGetErrorName itself is unusable (should not happen with a real driver). */
    private static final Map<Integer, String> FALLBACK = Map.ofEntries(
            Map.entry(0, "CUDA_SUCCESS"), Map.entry(1, "CUDA_ERROR_INVALID_VALUE"),
            Map.entry(2, "CUDA_ERROR_OUT_OF_MEMORY"), Map.entry(3, "CUDA_ERROR_NOT_INITIALIZED"),
            Map.entry(4, "CUDA_ERROR_DEINITIALIZED"), Map.entry(34, "CUDA_ERROR_STUB_LIBRARY"),
            Map.entry(46, "CUDA_ERROR_DEVICE_UNAVAILABLE"), Map.entry(100, "CUDA_ERROR_NO_DEVICE"),
            Map.entry(101, "CUDA_ERROR_INVALID_DEVICE"), Map.entry(200, "CUDA_ERROR_INVALID_IMAGE"),
            Map.entry(201, "CUDA_ERROR_INVALID_CONTEXT"), Map.entry(209, "CUDA_ERROR_NO_BINARY_FOR_GPU"),
            Map.entry(218, "CUDA_ERROR_INVALID_PTX"), Map.entry(222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
            Map.entry(400, "CUDA_ERROR_INVALID_HANDLE"), Map.entry(500, "CUDA_ERROR_NOT_FOUND"),
            Map.entry(600, "CUDA_ERROR_NOT_READY"), Map.entry(700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
            Map.entry(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"), Map.entry(702, "CUDA_ERROR_LAUNCH_TIMEOUT"),
            Map.entry(714, "CUDA_ERROR_HARDWARE_STACK_ERROR"), Map.entry(715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"),
            Map.entry(716, "CUDA_ERROR_MISALIGNED_ADDRESS"), Map.entry(717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"),
            Map.entry(718, "CUDA_ERROR_INVALID_PC"), Map.entry(719, "CUDA_ERROR_LAUNCH_FAILED"),
            Map.entry(999, "CUDA_ERROR_UNKNOWN"));

    private CudaErrors() {
    }

    /** "CUDA_ERROR_ILLEGAL_ADDRESS" for 700, from cuGetErrorName. */
    static String name(int rc) {
        String s = query(rc, true);
        return s != null ? s : FALLBACK.getOrDefault(rc, "CUDA_ERROR_" + rc);
    }

    /** The driver's description, from cuGetErrorString; "" if unknown. */
    static String text(int rc) {
        String s = query(rc, false);
        return s != null ? s : "";
    }

    private static String query(int rc, boolean name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            p.set(ADDRESS, 0, MemorySegment.NULL);
            int r = name ? CudaApi.cuGetErrorName(rc, p) : CudaApi.cuGetErrorString(rc, p);
            MemorySegment s = p.get(ADDRESS, 0);
            if (r != CUDA_SUCCESS || s.address() == 0) return null;
            return s.reinterpret(4096).getString(0);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory". */
    static String describe(int rc) {
        String t = text(rc);
        return name(rc) + " (" + rc + ")" + (t.isEmpty() ? "" : ": " + t);
    }

    /** True for errors after which the CUDA context can no longer be used. */
    static boolean sticky(int rc) {
        return rc == CUDA_ERROR_ILLEGAL_ADDRESS || rc == CUDA_ERROR_LAUNCH_FAILED || rc == CUDA_ERROR_LAUNCH_TIMEOUT
                || (rc >= 714 && rc <= 718);
    }

    static DeviceException.Kind kind(int rc) {
        return switch (rc) {
            case CUDA_ERROR_OUT_OF_MEMORY -> DeviceException.Kind.OUT_OF_MEMORY;
            case CUDA_ERROR_NOT_FOUND -> DeviceException.Kind.NOT_FOUND;
            case CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_DEVICE_UNAVAILABLE, CUDA_ERROR_NO_DEVICE, 802, 803, 804 ->
                    DeviceException.Kind.UNAVAILABLE;
            default -> DeviceException.Kind.DRIVER_ERROR;
        };
    }

    /** The exception for a failed driver call. */
    static DeviceException error(int rc, String function, String deviceId) {
        String msg = function + " failed on " + deviceId + ": " + describe(rc);
        if (sticky(rc)) msg += " (the CUDA context is now unusable; restart the process)";
        return new DeviceException(kind(rc), msg);
    }

    /** Throws unless {@code rc} is CUDA_SUCCESS. */
    static void check(int rc, String function, String deviceId) {
        if (rc != CUDA_SUCCESS) throw error(rc, function, deviceId);
    }
}
