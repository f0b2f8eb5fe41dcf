package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * NVRTC ({@code nvrtc.h}) through {@code java.lang.foreign}, loaded on first use. Not on any hot
 * path, so the handles are plain instance fields.
 */
final class NvrtcApi {
    static final int NVRTC_SUCCESS = 0;
    static final int NVRTC_ERROR_INVALID_OPTION = 5;
    static final int NVRTC_ERROR_COMPILATION = 6;

    private static NvrtcApi instance;
    private static DeviceException failure;

    final String libraryPath;
    final int major;
    final int minor;
    /** Sorted supported SM numbers (e.g. 75, 80, ... 120), or empty if the library cannot tell. */
    final int[] supportedArchs;

    private final MethodHandle getErrorString;
    private final MethodHandle createProgram;
    private final MethodHandle destroyProgram;
    private final MethodHandle compileProgram;
    private final MethodHandle getProgramLogSize;
    private final MethodHandle getProgramLog;
    private final MethodHandle getCubinSize; // null when absent (NVRTC < 11.1)
    private final MethodHandle getCubin;
    private final MethodHandle getPtxSize;
    private final MethodHandle getPtx;

    /** Outcome of one compilation: rc is an nvrtcResult; image is set on success. */
    record Result(int rc, byte[] image, String log) {
    }

    private NvrtcApi(String libraryPath, SymbolLookup lib) {
        this.libraryPath = libraryPath;
        Linker linker = Linker.nativeLinker();
        getErrorString = linker.downcallHandle(find(lib, "nvrtcGetErrorString"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        MethodHandle version = h(linker, lib, "nvrtcVersion", ADDRESS, ADDRESS);
        createProgram = h(linker, lib, "nvrtcCreateProgram", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        destroyProgram = h(linker, lib, "nvrtcDestroyProgram", ADDRESS);
        compileProgram = h(linker, lib, "nvrtcCompileProgram", ADDRESS, JAVA_INT, ADDRESS);
        getProgramLogSize = h(linker, lib, "nvrtcGetProgramLogSize", ADDRESS, ADDRESS);
        getProgramLog = h(linker, lib, "nvrtcGetProgramLog", ADDRESS, ADDRESS);
        getCubinSize = optional(linker, lib, "nvrtcGetCUBINSize", ADDRESS, ADDRESS);
        getCubin = optional(linker, lib, "nvrtcGetCUBIN", ADDRESS, ADDRESS);
        getPtxSize = h(linker, lib, "nvrtcGetPTXSize", ADDRESS, ADDRESS);
        getPtx = h(linker, lib, "nvrtcGetPTX", ADDRESS, ADDRESS);
        MethodHandle numArchs = optional(linker, lib, "nvrtcGetNumSupportedArchs", ADDRESS);
        MethodHandle archs = optional(linker, lib, "nvrtcGetSupportedArchs", ADDRESS);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pMaj = a.allocate(JAVA_INT), pMin = a.allocate(JAVA_INT);
            int rc = (int) version.invokeExact(pMaj, pMin);
            major = rc == NVRTC_SUCCESS ? pMaj.get(JAVA_INT, 0) : 0;
            minor = rc == NVRTC_SUCCESS ? pMin.get(JAVA_INT, 0) : 0;
            int[] sup = new int[0];
            if (numArchs != null && archs != null) {
                MemorySegment pN = a.allocate(JAVA_INT);
                if ((int) numArchs.invokeExact(pN) == NVRTC_SUCCESS) {
                    int n = pN.get(JAVA_INT, 0);
                    if (n > 0 && n < 1024) {
                        MemorySegment arr = a.allocate(JAVA_INT, n);
                        if ((int) archs.invokeExact(arr) == NVRTC_SUCCESS) {
                            sup = arr.toArray(JAVA_INT);
                            java.util.Arrays.sort(sup);
                        }
                    }
                }
            }
            supportedArchs = sup;
        } catch (Throwable t) {
            throw new DeviceException(DeviceException.Kind.UNAVAILABLE, "NVRTC at " + libraryPath + " is unusable: " + t, t);
        }
    }

    private static MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libnvrtc has no symbol " + name));
    }

    private static MethodHandle h(Linker linker, SymbolLookup lib, String name, MemoryLayout... args) {
        return linker.downcallHandle(find(lib, name), FunctionDescriptor.of(JAVA_INT, args));
    }

    private static MethodHandle optional(Linker linker, SymbolLookup lib, String name, MemoryLayout... args) {
        return lib.find(name).map(s -> linker.downcallHandle(s, FunctionDescriptor.of(JAVA_INT, args))).orElse(null);
    }

    String version() {
        return major + "." + minor;
    }

    boolean canEmitCubin() {
        return getCubinSize != null && getCubin != null;
    }

    // ------------------------------------------------------------------ loading

    /** The loaded NVRTC, or a DeviceException(UNAVAILABLE) listing every place tried. */
    static synchronized NvrtcApi get() {
        if (instance != null) return instance;
        if (failure != null) throw failure;
        List<String> tried = new ArrayList<>();
        String override = System.getenv("SQUALL_NVRTC");
        if (override != null && !override.isBlank()) {
            NvrtcApi api = tryLoad(override.trim(), true, tried);
            if (api == null) {
                failure = new DeviceException(DeviceException.Kind.UNAVAILABLE,
                        "SQUALL_NVRTC=" + override + " could not be loaded: " + String.join("; ", tried));
                throw failure;
            }
            return instance = api;
        }
        for (String name : new String[] {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
            NvrtcApi api = tryLoad(name, false, tried);
            if (api != null) return instance = api;
        }
        for (Path dir : candidateDirectories()) {
            for (Path file : libraryFiles(dir)) {
                NvrtcApi api = tryLoad(file.toString(), true, tried);
                if (api != null) return instance = api;
            }
            if (!Files.isDirectory(dir)) tried.add(dir + " (no such directory)");
        }
        failure = new DeviceException(DeviceException.Kind.UNAVAILABLE,
                "NVRTC (libnvrtc.so) not found; install the CUDA toolkit or the nvidia-cuda-nvrtc wheel, or set "
                        + "SQUALL_NVRTC=/path/libnvrtc.so. Tried: " + String.join("; ", tried));
        throw failure;
    }

    private static NvrtcApi tryLoad(String nameOrPath, boolean isPath, List<String> tried) {
        try {
            SymbolLookup lib;
            if (isPath) {
                Path p = Path.of(nameOrPath);
                preloadBuiltins(p.toAbsolutePath().getParent());
                lib = SymbolLookup.libraryLookup(p, Arena.global());
            } else {
                lib = SymbolLookup.libraryLookup(nameOrPath, Arena.global());
            }
            return new NvrtcApi(nameOrPath, lib);
        } catch (IllegalArgumentException | UnsatisfiedLinkError | DeviceException e) {
            tried.add(nameOrPath + " (" + e.getMessage() + ")");
            return null;
        }
    }

    /**
     * libnvrtc dlopen()s libnvrtc-builtins.so.X.Y by soname at compile time; when NVRTC comes from a
     * directory outside the loader's search path (pip wheels, a toolkit not in ld.so.conf), loading
     * the builtins from the same directory first lets that dlopen find the already loaded copy.
     */
    private static void preloadBuiltins(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) return;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "libnvrtc-builtins.so*")) {
            for (Path p : ds) {
                try {
                    SymbolLookup.libraryLookup(p, Arena.global());
                } catch (IllegalArgumentException | UnsatisfiedLinkError ignored) {
                    // a missing builtins library shows up later as an NVRTC error with its own text
                }
            }
        } catch (IOException ignored) {
            // unreadable directory: nothing to preload
        }
    }

    static List<Path> candidateDirectories() {
        Set<Path> dirs = new LinkedHashSet<>();
        String cudaHome = System.getenv("CUDA_HOME");
        if (cudaHome != null && !cudaHome.isBlank()) dirs.add(Path.of(cudaHome, "lib64"));
        String cudaPath = System.getenv("CUDA_PATH");
        if (cudaPath != null && !cudaPath.isBlank()) dirs.add(Path.of(cudaPath, "lib64"));
        dirs.add(Path.of("/usr/local/cuda/lib64"));
        dirs.add(Path.of("/usr/local/cuda/targets/x86_64-linux/lib"));
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(":")) if (!d.isBlank()) dirs.add(Path.of(d));
        }
        List<Path> sitePackages = new ArrayList<>();
        sitePackages.addAll(glob(Path.of("/usr/local/lib"), "python3*", "dist-packages"));
        sitePackages.addAll(glob(Path.of("/usr/local/lib"), "python3*", "site-packages"));
        sitePackages.add(Path.of("/usr/lib/python3/dist-packages"));
        for (Path venvParent : glob(Path.of("/opt"), "*", ".venv/lib")) {
            sitePackages.addAll(glob(venvParent, "python3*", "site-packages"));
        }
        for (Path sp : sitePackages) {
            dirs.add(sp.resolve("nvidia/cu13/lib"));
            dirs.add(sp.resolve("nvidia/cuda_nvrtc/lib"));
        }
        return new ArrayList<>(dirs);
    }

    /** {@code parent/<entries matching pattern>/suffix}, existing directories only, sorted newest name first. */
    private static List<Path> glob(Path parent, String pattern, String suffix) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(parent)) return out;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, pattern)) {
            for (Path p : ds) {
                Path d = p.resolve(suffix);
                if (Files.isDirectory(d)) out.add(d);
            }
        } catch (IOException ignored) {
            // unreadable: skip
        }
        out.sort(Comparator.comparing(Path::toString).reversed());
        return out;
    }

    /** libnvrtc.so, .so.13, .so.12, then any other libnvrtc.so.* in the directory (highest version first). */
    private static List<Path> libraryFiles(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        for (String n : new String[] {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
            Path p = dir.resolve(n);
            if (Files.exists(p)) out.add(p);
        }
        List<Path> others = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "libnvrtc.so.*")) {
            for (Path p : ds) if (!out.contains(p)) others.add(p);
        } catch (IOException ignored) {
            // unreadable: skip
        }
        others.sort(Comparator.comparing(Path::toString).reversed());
        out.addAll(others);
        return out;
    }

    // ------------------------------------------------------------------ calls

    String errorString(int rc) {
        try {
            MemorySegment s = (MemorySegment) getErrorString.invokeExact(rc);
            return s.address() == 0 ? "NVRTC error " + rc : s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            return "NVRTC error " + rc;
        }
    }

    /**
     * Compiles {@code source}; on success returns the CUBIN (when {@code cubin}) or the NUL-terminated PTX.
     * A non-zero rc from create/compile is returned with the log; other failures throw.
     */
    Result compile(String programName, String source, List<String> options, boolean cubin, String deviceId) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pProg = a.allocate(ADDRESS);
            int rc = (int) createProgram.invokeExact(pProg, a.allocateFrom(source), a.allocateFrom(programName),
                    0, MemorySegment.NULL, MemorySegment.NULL);
            if (rc != NVRTC_SUCCESS) return new Result(rc, null, "nvrtcCreateProgram: " + errorString(rc));
            MemorySegment prog = pProg.get(ADDRESS, 0);
            try {
                MemorySegment opts = a.allocate(ADDRESS, Math.max(1, options.size()));
                for (int i = 0; i < options.size(); i++) opts.setAtIndex(ADDRESS, i, a.allocateFrom(options.get(i)));
                rc = (int) compileProgram.invokeExact(prog, options.size(), opts);
                String log = log(a, prog);
                if (rc != NVRTC_SUCCESS) return new Result(rc, null, log);
                MemorySegment pSize = a.allocate(JAVA_LONG);
                MethodHandle sizeFn = cubin ? getCubinSize : getPtxSize;
                MethodHandle getFn = cubin ? getCubin : getPtx;
                String what = cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX";
                rc = (int) sizeFn.invokeExact(prog, pSize);
                if (rc != NVRTC_SUCCESS) throw nvrtcError(what + "Size", rc, deviceId);
                long size = pSize.get(JAVA_LONG, 0);
                if (size <= 0 || size > Integer.MAX_VALUE - 16) {
                    throw new DeviceException(DeviceException.Kind.DRIVER_ERROR,
                            what + "Size returned " + size + " bytes on " + deviceId);
                }
                MemorySegment buf = a.allocate(size + 1, 16); // +1: PTX stays NUL-terminated whatever size says
                rc = (int) getFn.invokeExact(prog, buf);
                if (rc != NVRTC_SUCCESS) throw nvrtcError(what, rc, deviceId);
                byte[] image;
                if (cubin) {
                    image = buf.asSlice(0, size).toArray(JAVA_BYTE);
                } else {
                    long len = size;
                    while (len > 0 && buf.get(JAVA_BYTE, len - 1) == 0) len--;
                    image = new byte[(int) len + 1]; // text + exactly one NUL
                    MemorySegment.copy(buf, JAVA_BYTE, 0, image, 0, (int) len);
                }
                return new Result(NVRTC_SUCCESS, image, log);
            } finally {
                MemorySegment pp = a.allocate(ADDRESS);
                pp.set(ADDRESS, 0, prog);
                int ignored = (int) destroyProgram.invokeExact(pp);
            }
        } catch (DeviceException e) {
            throw e;
        } catch (Throwable t) {
            throw new DeviceException(DeviceException.Kind.DRIVER_ERROR, "NVRTC call failed on " + deviceId + ": " + t, t);
        }
    }

    private String log(Arena a, MemorySegment prog) throws Throwable {
        MemorySegment pSize = a.allocate(JAVA_LONG);
        if ((int) getProgramLogSize.invokeExact(prog, pSize) != NVRTC_SUCCESS) return "";
        long size = pSize.get(JAVA_LONG, 0);
        if (size <= 1 || size > (64L << 20)) return "";
        MemorySegment buf = a.allocate(size + 1);
        if ((int) getProgramLog.invokeExact(prog, buf) != NVRTC_SUCCESS) return "";
        return buf.getString(0, StandardCharsets.UTF_8).strip();
    }

    private DeviceException nvrtcError(String fn, int rc, String deviceId) {
        return new DeviceException(DeviceException.Kind.DRIVER_ERROR,
                fn + " failed on " + deviceId + ": " + errorString(rc) + " (" + rc + ")");
    }
}
