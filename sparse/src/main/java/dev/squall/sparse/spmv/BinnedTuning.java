package dev.squall.sparse.spmv;

import dev.squall.sparse.format.BinnedCsrFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * Knobs of csr-binned (and csr-binned-two-launch), written after the format name on the command line,
 * each after a slash: {@code csr-binned/e4/u4/g512/s4096/w1024/len}.
 * <ul>
 * <li>{@code eN}: about N entries a lane when choosing a row's lanes (default 2): fewer, busier lanes for short rows;</li>
 * <li>{@code uN}: entries each lane has in flight per step, 2 (default) or 4 (kernel {@code csrBinnedQuad});</li>
 * <li>{@code gN}: work-group size (default 256, a multiple of 32 up to 1024);</li>
 * <li>{@code sN}: most entries of a long-row segment (default 8 per work-item of the group);</li>
 * <li>{@code wN}: rows longer than N entries get whole work-groups (default 512);</li>
 * <li>{@code len}: each lane bin lists its rows by descending length (empty rows last) instead of by row number.</li>
 * </ul>
 *
 * @param perLane  entries a lane, for the lane count of a row
 * @param unroll   entries a lane has in flight per step (2 or 4)
 * @param group    work-group size
 * @param segment  most entries of one long-row segment (0: 8 per work-item of the group)
 * @param warpMax  longest row given sub-group lanes
 * @param byLength rows of a bin by descending length
 */
public record BinnedTuning(int perLane, int unroll, int group, int segment, int warpMax, boolean byLength) {
    /** The schedule csr-binned has always had: 2 entries a lane, 2 in flight, groups of 256, segments of 2048, rows over 512 to groups, row order. */
    public static final BinnedTuning DEFAULT = new BinnedTuning(2, 2, BinnedCsrFormat.GPU_GROUP, 0, BinnedCsrFormat.WARP_MAX, false);

    public BinnedTuning {
        if (perLane < 1 || perLane > 64) throw new IllegalArgumentException("csr-binned/e" + perLane + ": entries per lane 1 to 64");
        if (unroll != 2 && unroll != 4) throw new IllegalArgumentException("csr-binned/u" + unroll + ": 2 or 4 entries in flight");
        if (group < 32 || group % 32 != 0 || group > 1024) throw new IllegalArgumentException("csr-binned/g" + group + ": a multiple of 32, at most 1024");
        if (segment != 0 && segment < group) throw new IllegalArgumentException("csr-binned/s" + segment + ": shorter than the group (" + group + ")");
        if (warpMax < 32) throw new IllegalArgumentException("csr-binned/w" + warpMax + ": at least 32");
    }

    /** Entries of one long-row segment. */
    public int segLen() {
        return segment == 0 ? 8 * group : segment;
    }

    /** Parses the knobs after the format name ({@code "e4/len"}; empty: the default). */
    public static BinnedTuning parse(String knobs) {
        int e = DEFAULT.perLane, u = DEFAULT.unroll, g = DEFAULT.group, s = DEFAULT.segment, w = DEFAULT.warpMax;
        boolean len = false;
        for (String k : knobs.split("/")) {
            k = k.strip();
            if (k.isEmpty()) continue;
            if (k.equals("len")) {
                len = true;
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(k.substring(1));
            } catch (NumberFormatException bad) {
                throw new IllegalArgumentException("csr-binned knob '" + k + "': one of eN, uN, gN, sN, wN, len");
            }
            switch (k.charAt(0)) {
                case 'e' -> e = n;
                case 'u' -> u = n;
                case 'g' -> g = n;
                case 's' -> s = n;
                case 'w' -> w = n;
                default -> throw new IllegalArgumentException("csr-binned knob '" + k + "': one of eN, uN, gN, sN, wN, len");
            }
        }
        return new BinnedTuning(e, u, g, s, w, len);
    }

    /** The knobs that differ from the default, as written on the command line ({@code "/e4/len"}; empty for the default). */
    public String suffix() {
        List<String> k = new ArrayList<>();
        if (perLane != DEFAULT.perLane) k.add("e" + perLane);
        if (unroll != DEFAULT.unroll) k.add("u" + unroll);
        if (group != DEFAULT.group) k.add("g" + group);
        if (segment != 0 && segment != 8 * group) k.add("s" + segment);
        if (warpMax != DEFAULT.warpMax) k.add("w" + warpMax);
        if (byLength) k.add("len");
        return k.isEmpty() ? "" : "/" + String.join("/", k);
    }
}
