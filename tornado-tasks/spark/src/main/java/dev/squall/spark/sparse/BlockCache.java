package dev.squall.spark.sparse;

import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Device copies of row blocks, kept in each executor JVM between tasks: the key is the distributed matrix, the block
 * and the device, so a task that lands where its block ran before finds the matrix already on the device (the format
 * chosen and the arrays copied once). At most {@link #CAPACITY} copies are kept; the least recently used one is freed.
 */
final class BlockCache {
    static final int CAPACITY = 64;
    private static final Map<String, SpmvExecutor> COPIES = new LinkedHashMap<>(16, 0.75f, true);
    private static long hits, misses;

    private BlockCache() {
    }

    /** The block's SpMV executor on {@code device}, built on first use. Callers synchronize on it while they use it. */
    static SpmvExecutor spmv(String matrixId, RowBlock block, Device device) {
        String key = matrixId + "/" + block.id() + "@" + device.id();
        synchronized (COPIES) {
            SpmvExecutor e = COPIES.get(key);
            if (e != null) {
                hits++;
                return e;
            }
            misses++;
            var local = block.local();
            e = SpmvExecutor.create(local, FormatChooser.choose(local, device).format(), Precision.FP64, device);
            COPIES.put(key, e);
            if (COPIES.size() > CAPACITY) {
                Iterator<Map.Entry<String, SpmvExecutor>> oldest = COPIES.entrySet().iterator();
                SpmvExecutor old = oldest.next().getValue();
                oldest.remove();
                synchronized (old) {
                    old.close();
                }
            }
            return e;
        }
    }

    /** Frees every copy of one distributed matrix held in this JVM; returns how many. */
    static int evict(String matrixId) {
        int n = 0;
        synchronized (COPIES) {
            for (Iterator<Map.Entry<String, SpmvExecutor>> it = COPIES.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, SpmvExecutor> e = it.next();
                if (e.getKey().startsWith(matrixId + "/")) {
                    synchronized (e.getValue()) {
                        e.getValue().close();
                    }
                    it.remove();
                    n++;
                }
            }
        }
        return n;
    }

    /** Lookups that found a copy and that built one, in this JVM. */
    static long[] counts() {
        synchronized (COPIES) {
            return new long[] {hits, misses};
        }
    }

    /** y = A_block x_ext on the cached copy. */
    static double[] multiply(String matrixId, RowBlock block, Device device, double[] extended) {
        SpmvExecutor e = spmv(matrixId, block, device);
        synchronized (e) {
            return e.multiply(1.0, extended, 0.0, null);
        }
    }
}
