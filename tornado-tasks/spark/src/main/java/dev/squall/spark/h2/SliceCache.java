package dev.squall.spark.h2;

import dev.squall.tasks.runtime.Device;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Device copies of H2 parts ({@link SubtreeSlice}), kept in each executor JVM between tasks and products: the key is
 * the distributed matrix, the part and the device, so a part's bases, couplings and dense blocks are computed once per
 * device it lands on. At most {@link #CAPACITY} are kept; the least recently used one is freed.
 */
final class SliceCache {
    static final int CAPACITY = 64;
    private static final Map<String, SubtreeSlice> SLICES = new LinkedHashMap<>(16, 0.75f, true);

    private SliceCache() {
    }

    /** The part's slice on {@code device}, built on first use. */
    static SubtreeSlice slice(String matrixId, SubtreePart part, Device device) {
        String key = matrixId + "/" + part.part() + "@" + device.id();
        synchronized (SLICES) {
            SubtreeSlice s = SLICES.get(key);
            if (s != null) return s;
        }
        SubtreeSlice built = new SubtreeSlice(part, device); // outside the lock: other parts build at the same time
        synchronized (SLICES) {
            SubtreeSlice s = SLICES.putIfAbsent(key, built);
            if (s != null) {
                built.close();
                return s;
            }
            if (SLICES.size() > CAPACITY) {
                Iterator<SubtreeSlice> oldest = SLICES.values().iterator();
                SubtreeSlice old = oldest.next();
                oldest.remove();
                old.close();
            }
            return built;
        }
    }

    /** Frees every slice of one distributed matrix held in this JVM; returns how many. */
    static int evict(String matrixId) {
        int n = 0;
        synchronized (SLICES) {
            for (Iterator<Map.Entry<String, SubtreeSlice>> it = SLICES.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, SubtreeSlice> e = it.next();
                if (e.getKey().startsWith(matrixId + "/")) {
                    e.getValue().close();
                    it.remove();
                    n++;
                }
            }
        }
        return n;
    }
}
