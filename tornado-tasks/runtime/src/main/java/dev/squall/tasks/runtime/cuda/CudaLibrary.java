package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.spi.BackendUnavailableException;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and opens the CUDA driver library ({@code libcuda.so.1}, then {@code libcuda.so}) once per
 * JVM. A failure is remembered and reported again without retrying dlopen.
 */
final class CudaLibrary {
    static final String[] NAMES = {"libcuda.so.1", "libcuda.so"};

    private static SymbolLookup lookup;
    private static String failure;

    private CudaLibrary() {
    }

    /** Opens the driver library, or throws with the reason. */
    static synchronized SymbolLookup load() throws BackendUnavailableException {
        if (lookup != null) return lookup;
        if (failure != null) throw new BackendUnavailableException(failure);
        List<String> errors = new ArrayList<>();
        for (String name : NAMES) {
            try {
                lookup = SymbolLookup.libraryLookup(name, Arena.global());
                return lookup;
            } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                errors.add(name + ": " + e.getMessage());
            }
        }
        failure = "libcuda.so.1 not found: no NVIDIA driver (tried " + String.join("; ", errors) + ")";
        throw new BackendUnavailableException(failure);
    }

    /** The opened library; only valid after a successful {@link #load()}. */
    static synchronized SymbolLookup loaded() {
        if (lookup == null) throw new IllegalStateException("libcuda not loaded");
        return lookup;
    }
}
