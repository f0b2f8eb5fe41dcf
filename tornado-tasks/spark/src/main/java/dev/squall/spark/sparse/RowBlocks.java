package dev.squall.spark.sparse;

import dev.squall.sparse.format.CsrMatrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Cuts a square CSR matrix into row blocks of (nearly) equal height with their halos ({@link RowBlock}).
 *
 * <pre>{@code
 * List<RowBlock> blocks = RowBlocks.split(Stencils.hpcg(16, 16, 16), 4);
 * }</pre>
 */
public final class RowBlocks {
    private RowBlocks() {
    }

    /** First row of each block and, last, the row count: {@code parts + 1} boundaries. */
    public static int[] boundaries(int rows, int parts) {
        if (parts < 1 || parts > Math.max(1, rows)) throw new IllegalArgumentException("cannot cut " + rows + " rows into " + parts + " blocks");
        int[] b = new int[parts + 1];
        for (int k = 0; k <= parts; k++) b[k] = (int) ((long) rows * k / parts);
        return b;
    }

    public static List<RowBlock> split(CsrMatrix a, int parts) {
        if (a.rows() != a.cols()) throw new IllegalArgumentException("row blocks need a square matrix, got " + a.rows() + " x " + a.cols());
        int[] bound = boundaries(a.rows(), parts);
        int[][] halos = new int[parts][];
        List<TreeSet<Integer>> sends = new ArrayList<>(), readers = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            sends.add(new TreeSet<>());
            readers.add(new TreeSet<>());
        }
        for (int k = 0; k < parts; k++) {
            TreeSet<Integer> outside = new TreeSet<>();
            for (int i = bound[k]; i < bound[k + 1]; i++) {
                for (int e = a.rowStart(i); e < a.rowStart(i + 1); e++) {
                    int c = a.colIndex(e);
                    if (c < bound[k] || c >= bound[k + 1]) outside.add(c);
                }
            }
            halos[k] = outside.stream().mapToInt(Integer::intValue).toArray();
            for (int c : halos[k]) {
                int owner = owner(bound, c);
                sends.get(owner).add(c - bound[owner]);
                readers.get(owner).add(k);
            }
        }
        int[][] send = new int[parts][];
        for (int k = 0; k < parts; k++) send[k] = sends.get(k).stream().mapToInt(Integer::intValue).toArray();
        List<RowBlock> out = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            int first = bound[k], rows = bound[k + 1] - first;
            int[] halo = halos[k];
            int[] owner = new int[halo.length], slot = new int[halo.length];
            for (int h = 0; h < halo.length; h++) {
                owner[h] = owner(bound, halo[h]);
                slot[h] = Arrays.binarySearch(send[owner[h]], halo[h] - bound[owner[h]]);
            }
            int[] rowPtr = new int[rows + 1];
            int nnz = a.rowStart(bound[k + 1]) - a.rowStart(first);
            int[] cols = new int[nnz];
            double[] vals = new double[nnz];
            int p = 0;
            for (int i = 0; i < rows; i++) {
                int start = p;
                for (int e = a.rowStart(first + i); e < a.rowStart(first + i + 1); e++) {
                    int c = a.colIndex(e);
                    cols[p] = c >= first && c < first + rows ? c - first : rows + Arrays.binarySearch(halo, c);
                    vals[p++] = a.value(e);
                }
                sortRow(cols, vals, start, p);
                rowPtr[i + 1] = p;
            }
            out.add(new RowBlock(k, first, rows, rowPtr, cols, vals, halo, owner, slot, send[k],
                    readers.get(k).stream().mapToInt(Integer::intValue).toArray()));
        }
        return out;
    }

    /** Insertion sort of one row's entries by local column (halo columns below the block come after its own). */
    private static void sortRow(int[] cols, double[] vals, int from, int to) {
        for (int k = from + 1; k < to; k++) {
            int c = cols[k];
            double v = vals[k];
            int j = k - 1;
            for (; j >= from && cols[j] > c; j--) {
                cols[j + 1] = cols[j];
                vals[j + 1] = vals[j];
            }
            cols[j + 1] = c;
            vals[j + 1] = v;
        }
    }

    private static int owner(int[] bound, int row) {
        int k = Arrays.binarySearch(bound, row);
        return k >= 0 ? Math.min(k, bound.length - 2) : -k - 2;
    }
}
