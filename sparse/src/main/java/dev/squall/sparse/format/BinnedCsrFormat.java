package dev.squall.sparse.format;

import java.util.ArrayList;
import java.util.List;

/**
 * CSR plus a schedule that bins rows by length, for skewed and power-law matrices: rows of similar
 * length share a lane count (a power of two up to the sub-group width), and rows longer than
 * {@link #WARP_MAX} are cut into segments of at most {@code segLen} entries, each given a whole
 * work-group. The matrix itself stays CSR, so the round trip is the identity; the schedule is
 * a permutation of the rows (every row in exactly one bin, long rows covered by their segments).
 * The executor reads a copy of the entries laid out in schedule order (long rows first, then the
 * bins' rows in list order), so the rows a sub-group takes are adjacent in memory even when they
 * are far apart in the matrix (R-MAT's short rows): a sub-group reads whole sectors of indices and
 * values, and a row's range comes from {@code listPtr[item]} directly instead of through {@code rowPtr[rowList[item]]}.
 *
 * <pre>{@code
 * BinnedCsrFormat b = BinnedCsrFormat.from(a, 256, 2048);
 * System.out.println(b.describe());     // "lanes group: 1000 rows in 3000 segments of <= 2048, 4: 999000 rows"
 * }</pre>
 *
 * @param csr       the matrix
 * @param group     work-group size the schedule was made for (a multiple of 32)
 * @param segLen    most entries of one long-row segment
 * @param binLanes  lanes per row of each bin, descending; the first bin may be {@code group} (whole-group segments)
 * @param binGroup  first work-group of each bin, and the total number of groups at the end ({@code bins + 1} entries)
 * @param binItem   first index of each bin in {@code rowList} (0 for the segment bin), and {@code rowList.length} at the end
 * @param rowList   rows of the lane bins, bin by bin, ascending within a bin
 * @param segRow    row of each segment
 * @param listPtr   first entry (index into {@code entryCol}, {@code entryVal}) of each row of {@code rowList}, and nnz at the end
 * @param segRow    row of each segment
 * @param segStart  first entry (index into {@code entryCol}, {@code entryVal}) of each segment
 * @param segEnd    end (exclusive) of each segment's entries
 * @param longRow   the rows cut into segments, ascending
 * @param longSeg   first segment of each long row, and the segment count at the end
 * @param entryCol  column of every entry, in schedule order (long rows, then {@code rowList}'s rows)
 * @param entryVal  value of every entry, in the same order
 * @param streamMax longest row of the stream bin (-1: no stream bin)
 * @param streamItem first {@code rowList} index of each stream block, and the stream bin's end (empty without a stream bin)
 */
public record BinnedCsrFormat(CsrMatrix csr, int group, int segLen, int[] binLanes, int[] binGroup, int[] binItem, int[] rowList,
                              int[] listPtr, int[] segRow, int[] segStart, int[] segEnd, int[] longRow, int[] longSeg,
                              int[] entryCol, double[] entryVal, int streamMax, int[] streamItem) {
    /** {@code binLanes} of the stream bin: its groups take whole blocks of consecutive short rows (CSR-stream). */
    public static final int STREAM = 0;
    /** Most entries of one stream block: 4 per work-item of a 256-wide group (the kernel's local array). */
    public static final int STREAM_BLOCK = 1024;

    /** Rows longer than this get whole work-groups (a 32-lane sub-group would loop more than 16 times). */
    public static final int WARP_MAX = 512;
    /** Work-group size of the GPU executors. */
    public static final int GPU_GROUP = 256;
    /** Most entries of one long-row segment on GPUs: 8 per work-item of a group. */
    public static final int GPU_SEGMENT = 8 * GPU_GROUP;

    /**
     * Segments that the one-launch path publishes through a global fence and an atomic count: those of rows
     * cut into two or more segments (a row of one segment, {@code WARP_MAX < len <= segLen}, is stored by its
     * group directly).
     */
    public static long fencedSegments(CsrMatrix a, int segLen) {
        long n = 0;
        for (int i = 0; i < a.rows(); i++) {
            int len = a.rowLength(i);
            if (len > WARP_MAX && len > segLen) n += (len + segLen - 1) / segLen;
        }
        return n;
    }

    /**
     * Lanes for a row of {@code len} entries: the smallest power of two (1..32) with
     * {@code 2 lanes >= len}, so each lane takes about two entries. Lanes of a row read
     * consecutive entries, so a sub-group still reads whole 32-byte sectors, with half the
     * per-work-item index arithmetic that one entry per lane would cost.
     */
    public static int lanesFor(int len) {
        return lanesFor(len, 2);
    }

    /** Lanes for a row of {@code len} entries at about {@code perLane} entries a lane: the smallest power of two (1..32) with {@code perLane lanes >= len}. */
    public static int lanesFor(int len, int perLane) {
        int lanes = 1;
        while (lanes < 32 && lanes * perLane < len) lanes <<= 1;
        return lanes;
    }

    /** The inspector without a stream bin: one pass to count rows per lane count, one to fill the bins. */
    public static BinnedCsrFormat from(CsrMatrix a, int group, int segLen) {
        return from(a, group, segLen, -1);
    }

    /**
     * The inspector; rows of at most {@code streamMax} entries (none when negative) go to a stream bin, last:
     * consecutive such rows (in row order) are packed into blocks of at most {@link #STREAM_BLOCK} entries and
     * {@link #STREAM_BLOCK} rows, one work-group per block (Greathouse and Daga's CSR-stream, SC'14), so their
     * entries are read as one coalesced stream, four per work-item in flight, and each row's sum is taken from
     * local memory.
     */
    public static BinnedCsrFormat from(CsrMatrix a, int group, int segLen, int streamMax) {
        return from(a, group, segLen, streamMax, 2, WARP_MAX, false);
    }

    /**
     * The inspector with its tuning knobs: {@code perLane} entries a lane when choosing a row's lanes
     * ({@link #lanesFor(int, int)}; 2 by default), rows longer than {@code warpMax} (default {@link #WARP_MAX})
     * get whole work-groups, and with {@code byLength} each lane bin lists its rows by descending length
     * (ascending row number among equal lengths; empty rows last) instead of by row number, so the rows
     * that share a sub-group have near-equal trip counts. y's order does not depend on the list order:
     * each row's sum is stored at its own index.
     */
    public static BinnedCsrFormat from(CsrMatrix a, int group, int segLen, int streamMax, int perLane, int warpMax, boolean byLength) {
        if (perLane < 1 || perLane > 64) throw new IllegalArgumentException("entries per lane " + perLane + ": 1 to 64");
        if (warpMax < 32) throw new IllegalArgumentException("longest sub-group row " + warpMax + ": at least 32");
        if (streamMax > 64) throw new IllegalArgumentException("stream rows of up to " + streamMax + " entries: at most 64");
        if (streamMax >= 0 && group * 4 < STREAM_BLOCK) throw new IllegalArgumentException("stream blocks need a group of at least " + STREAM_BLOCK / 4);
        if (group % 32 != 0 || group > 1024) throw new IllegalArgumentException("group size " + group + " must be a multiple of 32, at most 1024");
        if (segLen < group) throw new IllegalArgumentException("segment length " + segLen + " is shorter than the group size " + group);
        int rows = a.rows();
        int[] count = new int[6]; // lanes 1, 2, 4, 8, 16, 32
        long segments = 0;
        int longRows = 0;
        int streamRows = 0;
        int blocks = 0;
        int blockRows = 0;
        int blockLen = 0;
        for (int i = 0; i < rows; i++) {
            int len = a.rowLength(i);
            if (len <= streamMax) {
                if (startsStreamBlock(blockRows, blockLen, len)) {
                    blocks++;
                    blockRows = 0;
                    blockLen = 0;
                }
                blockRows++;
                blockLen += len;
                streamRows++;
            } else if (len > warpMax) {
                segments += (len + segLen - 1) / segLen;
                longRows++;
            } else {
                count[Integer.numberOfTrailingZeros(lanesFor(len, perLane))]++;
            }
        }
        List<Integer> lanes = new ArrayList<>();
        List<Integer> groupStart = new ArrayList<>();
        List<Integer> itemStart = new ArrayList<>();
        long groups = 0;
        // the whole-group segments first: the longest work starts first and the short bins fill the tail
        if (segments > 0) {
            lanes.add(group);
            groupStart.add(0);
            itemStart.add(0);
            groups = segments;
        }
        int[] fill = new int[6];
        int items = 0;
        for (int q = 5; q >= 0; q--) {
            if (count[q] == 0) continue;
            int l = 1 << q;
            int perGroup = group / l;
            lanes.add(l);
            groupStart.add((int) Math.min(groups, Integer.MAX_VALUE));
            itemStart.add(items);
            fill[q] = items;
            groups += (count[q] + perGroup - 1) / perGroup;
            items += count[q];
        }
        int streamFill = items;
        if (streamRows > 0) {
            lanes.add(STREAM);
            groupStart.add((int) Math.min(groups, Integer.MAX_VALUE));
            itemStart.add(items);
            groups += blocks;
            items += streamRows;
        }
        if (groups > Integer.MAX_VALUE / group) throw new IllegalArgumentException("csr-binned: " + groups + " work-groups is too many");
        groupStart.add((int) groups);
        itemStart.add(items);
        int[] rowList = new int[items];
        int[] segRow = new int[(int) segments];
        int[] segStart = new int[(int) segments];
        int[] segEnd = new int[(int) segments];
        int[] longRow = new int[longRows];
        int[] longSeg = new int[longRows + 1];
        int s = 0;
        int lr = 0;
        int[] streamItem = new int[streamRows > 0 ? blocks + 1 : 0];
        int blk = 0;
        blockRows = 0;
        blockLen = 0;
        for (int i = 0; i < rows; i++) {
            int len = a.rowLength(i);
            if (len <= streamMax) {
                if (startsStreamBlock(blockRows, blockLen, len)) {
                    streamItem[blk++] = streamFill;
                    blockRows = 0;
                    blockLen = 0;
                }
                blockRows++;
                blockLen += len;
                rowList[streamFill++] = i;
            } else if (len > warpMax) {
                longRow[lr] = i;
                longSeg[lr++] = s++;
                s += (len + segLen - 1) / segLen - 1;
            } else {
                rowList[fill[Integer.numberOfTrailingZeros(lanesFor(len, perLane))]++] = i;
            }
        }
        longSeg[longRows] = s;
        if (byLength) {
            for (int q = 0; q < lanes.size(); q++) {
                if (lanes.get(q) == STREAM || lanes.get(q) >= group) continue;
                sortByLength(a, rowList, itemStart.get(q), itemStart.get(q + 1));
            }
        }
        if (streamRows > 0) streamItem[blocks] = streamFill;
        // entries in schedule order: long rows' segments, then the listed rows
        int[] col = a.colIdx();
        double[] val = a.values();
        int[] entryCol = new int[a.nnz()];
        double[] entryVal = new double[a.nnz()];
        int[] listPtr = new int[items + 1];
        int at = 0;
        s = 0;
        for (int j = 0; j < longRows; j++) {
            int r = longRow[j];
            for (int k = a.rowStart(r); k < a.rowStart(r + 1); k += segLen) {
                segRow[s] = r;
                segStart[s] = at + k - a.rowStart(r);
                segEnd[s++] = at + Math.min(k + segLen, a.rowStart(r + 1)) - a.rowStart(r);
            }
            at = copyRow(a, r, col, val, entryCol, entryVal, at);
        }
        for (int t = 0; t < items; t++) {
            listPtr[t] = at;
            at = copyRow(a, rowList[t], col, val, entryCol, entryVal, at);
        }
        listPtr[items] = at;
        return new BinnedCsrFormat(a, group, segLen, toArray(lanes), toArray(groupStart), toArray(itemStart), rowList, listPtr,
                segRow, segStart, segEnd, longRow, longSeg, entryCol, entryVal, streamMax, streamItem);
    }

    /** Whether a stream row of {@code len} entries opens a new block after one of {@code blockRows} rows and {@code blockLen} entries. */
    private static boolean startsStreamBlock(int blockRows, int blockLen, int len) {
        return blockRows == 0 || blockRows == STREAM_BLOCK || blockLen + len > STREAM_BLOCK;
    }

    /** Rows {@code list[from..to)} by descending length, ascending row number among equal lengths. */
    private static void sortByLength(CsrMatrix a, int[] list, int from, int to) {
        long[] keyed = new long[to - from];
        for (int t = from; t < to; t++) keyed[t - from] = ((long) (Integer.MAX_VALUE - a.rowLength(list[t])) << 32) | list[t];
        java.util.Arrays.sort(keyed);
        for (int t = from; t < to; t++) list[t] = (int) keyed[t - from];
    }

    private static int copyRow(CsrMatrix a, int r, int[] col, double[] val, int[] toCol, double[] toVal, int at) {
        int k0 = a.rowStart(r);
        int len = a.rowStart(r + 1) - k0;
        System.arraycopy(col, k0, toCol, at, len);
        System.arraycopy(val, k0, toVal, at, len);
        return at + len;
    }

    /** Number of bins. */
    public int bins() {
        return binLanes.length;
    }

    /** Work-groups of the launch. */
    public int groups() {
        return binGroup[binLanes.length];
    }

    /** Back to CSR: the matrix was never changed. */
    public CsrMatrix toCsr() {
        return csr;
    }

    /** The bins in words, e.g. {@code lanes group: 1000 rows in 3000 segments of <= 2048, 4: 999000 rows}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (longRow.length > 0) {
            int multi = 0;
            for (int j = 0; j < longRow.length; j++) if (longSeg[j + 1] - longSeg[j] > 1) multi++;
            parts.add("group: " + longRow.length + " rows in " + segRow.length + " segments of <= " + segLen
                    + " (" + (longRow.length - multi) + " rows of one segment)");
        }
        for (int q = 0; q < bins(); q++) {
            if (binLanes[q] == STREAM) {
                parts.add("stream (<= " + streamMax + " entries): " + (binItem[q + 1] - binItem[q]) + " rows in " + (streamItem.length - 1)
                        + " blocks of <= " + STREAM_BLOCK);
            } else if (binLanes[q] < group) {
                parts.add(binLanes[q] + ": " + (binItem[q + 1] - binItem[q]) + " rows");
            }
        }
        return "lanes " + String.join(", ", parts);
    }

    private static int[] toArray(List<Integer> l) {
        int[] r = new int[l.size()];
        for (int i = 0; i < r.length; i++) r[i] = l.get(i);
        return r;
    }
}
