package dev.squall.permanent.codegen;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.KernelSignature;
import dev.squall.tasks.runtime.RuntimeKernel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The generated kernels this process has already built, per device and source text (least recently used dropped past
 * {@value #CAPACITY}): a repeated permanent of the same matrix in a warm process skips the build and the module load of
 * the on-disk cache. {@link #compile} says whether the kernel came from here.
 *
 * <pre>{@code
 * CompiledKernels.Lookup k = CompiledKernels.compile(device, KernelSourceGenerator.KERNEL_NAME, Backend.CUDA, text, signature);
 * }</pre>
 */
public final class CompiledKernels {
    static final int CAPACITY = 64;

    /** A kernel and whether this process had built it before. */
    public record Lookup(RuntimeKernel kernel, boolean inProcess) {
    }

    private record Key(String device, String name, KernelSourceGenerator.Backend backend, String source) {
    }

    private static final Map<Key, RuntimeKernel> KERNELS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, RuntimeKernel> eldest) {
            return size() > CAPACITY;
        }
    };

    private CompiledKernels() {
    }

    /** The kernel of {@code text} (CUDA C or OpenCL C, the preamble added) on {@code device}, built once per process. */
    public static Lookup compile(Device device, String name, KernelSourceGenerator.Backend backend, String text, KernelSignature signature) {
        Key key = new Key(device.id(), name, backend, text);
        synchronized (KERNELS) {
            RuntimeKernel k = KERNELS.get(key);
            if (k != null) return new Lookup(k, true);
        }
        RuntimeKernel k = device.compile(name, KernelPreamble.source(backend, text), signature);
        synchronized (KERNELS) {
            KERNELS.put(key, k);
        }
        return new Lookup(k, false);
    }
}
