package dev.squall.sparse.io;

import dev.squall.sparse.format.CsrMatrix;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The entries of a Matrix Market file as coordinate triplets, in file order, in arrays that grow
 * as entries arrive (up to the count the size line declares), with the line of every entry kept
 * compactly: only where the line numbers of consecutive entries do not step by one (comments,
 * blank lines) is a line recorded. A symmetric file's mirrored entry follows its original.
 */
final class Triplets {
    private static final int FIRST_CAPACITY = 1024;

    private final long limit;
    private final boolean mirrored;
    private int[] rows;
    private int[] cols;
    private double[] values;
    private int size;
    private int entries;
    private long lastLine = Long.MIN_VALUE;
    private int[] breakEntry = new int[4];
    private long[] breakLine = new long[4];
    private int breaks;
    private double overflowSum;

    /**
     * @param limit    the most triplets the file can hold (from its size line)
     * @param mirrored true when off-diagonal entries are followed by their mirror image
     */
    Triplets(long limit, boolean mirrored) {
        this.limit = limit;
        this.mirrored = mirrored;
        int cap = (int) Math.min(limit, FIRST_CAPACITY);
        rows = new int[cap];
        cols = new int[cap];
        values = new double[cap];
    }

    /** Adds the entry of file line {@code line} at 0-based ({@code r}, {@code c}). */
    void add(int r, int c, double v, long line) {
        put(r, c, v);
        if (line != lastLine + 1) {
            if (breaks == breakEntry.length) {
                breakEntry = Arrays.copyOf(breakEntry, 2 * breaks);
                breakLine = Arrays.copyOf(breakLine, 2 * breaks);
            }
            breakEntry[breaks] = entries;
            breakLine[breaks++] = line;
        }
        lastLine = line;
        entries++;
    }

    /** Adds the mirror image of the entry added last, with value {@code v}. */
    void addMirror(double v) {
        put(cols[size - 1], rows[size - 1], v);
    }

    private void put(int r, int c, double v) {
        if (size == rows.length) {
            if (size >= limit) throw new IllegalStateException("more triplets than the declared " + limit);
            int cap = (int) Math.min(limit, Math.max(FIRST_CAPACITY, 2L * size));
            rows = Arrays.copyOf(rows, cap);
            cols = Arrays.copyOf(cols, cap);
            values = Arrays.copyOf(values, cap);
        }
        rows[size] = r;
        cols[size] = c;
        values[size++] = v;
    }

    /** Entries added so far (mirrors not counted). */
    int entries() {
        return entries;
    }

    /** The matrix, duplicates summed in file order. */
    CsrMatrix toCsr(int nRows, int nCols) {
        return CsrMatrix.fromCoo(nRows, nCols, rows, cols, values, size);
    }

    /**
     * The triplet whose value makes a running sum of duplicates non-finite (the first one in file
     * order), or -1 when every entry of {@code a}, this matrix, is finite. Values read are finite,
     * so a non-finite entry of {@code a} is a sum of duplicates that overflowed.
     */
    int firstOverflow(CsrMatrix a) {
        Set<Long> bad = new HashSet<>();
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                if (!Double.isFinite(a.value(k))) bad.add(key(i, a.colIndex(k)));
            }
        }
        if (bad.isEmpty()) return -1;
        Map<Long, Double> sums = new HashMap<>();
        for (int t = 0; t < size; t++) {
            long key = key(rows[t], cols[t]);
            if (!bad.contains(key)) continue;
            double sum = sums.merge(key, values[t], Double::sum);
            if (!Double.isFinite(sum)) {
                overflowSum = sum;
                return t;
            }
        }
        throw new IllegalStateException("a non-finite sum in the matrix that no running sum of its triplets reaches");
    }

    /** The sum {@link #firstOverflow} found. */
    double overflowSum() {
        return overflowSum;
    }

    private static long key(int r, int c) {
        return ((long) r << 32) | (c & 0xffffffffL);
    }

    int row(int triplet) {
        return rows[triplet];
    }

    int col(int triplet) {
        return cols[triplet];
    }

    /** The 0-based file entry that added {@code triplet}. */
    int entryOf(int triplet) {
        if (!mirrored) return triplet;
        int e = 0;
        for (int t = 0; ; e++) {
            t += rows[t] != cols[t] ? 2 : 1;
            if (triplet < t) return e;
        }
    }

    /** The file line of 0-based entry {@code entry}. */
    long lineOf(int entry) {
        int b = Arrays.binarySearch(breakEntry, 0, breaks, entry);
        if (b < 0) b = -b - 2;
        return breakLine[b] + (entry - breakEntry[b]);
    }
}
