package dev.squall.spark.sparse;

import dev.squall.sparse.format.CsrMatrix;

import java.io.Serializable;

/**
 * One block of consecutive rows of a square sparse matrix, as a task holds it: its rows in CSR with columns
 * renumbered, the block's own columns first ({@code 0 .. rows-1}, row {@code firstRow + k} of the whole matrix is
 * column {@code k}) and then its halo, the outside columns its rows touch ({@code rows + h} is the global column
 * {@code halo[h]}). {@code haloOwner[h]} is the block that owns {@code halo[h]} and {@code haloSlot[h]} its place in
 * that block's {@link #send} list, the local rows whose values other blocks need, in increasing order.
 *
 * @param id        block number, also its partition
 * @param firstRow  first global row
 * @param rows      rows in the block
 * @param rowPtr    local CSR row pointers ({@code rows + 1})
 * @param colIdx    local column numbers
 * @param values    entries
 * @param halo      global columns outside the block, increasing
 * @param haloOwner owning block of each halo column
 * @param haloSlot  index of each halo column in its owner's send list
 * @param send      local rows other blocks read, increasing
 * @param readers   blocks that read some of this block's rows (its halo neighbours), increasing
 */
public record RowBlock(int id, int firstRow, int rows, int[] rowPtr, int[] colIdx, double[] values, int[] halo, int[] haloOwner,
                       int[] haloSlot, int[] send, int[] readers) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The block's rows as a {@code rows x (rows + halo)} matrix over the extended vector (own values, then the halo). */
    public CsrMatrix local() {
        return CsrMatrix.of(rows, rows + halo.length, rowPtr, colIdx, values);
    }

    /** Whether block {@code k} reads values of this block. */
    public boolean readBy(int k) {
        return java.util.Arrays.binarySearch(readers, k) >= 0;
    }

    /** The values other blocks need: {@code v} at the {@link #send} rows. */
    public double[] sendValues(double[] v) {
        double[] out = new double[send.length];
        for (int k = 0; k < send.length; k++) out[k] = v[send[k]];
        return out;
    }

    /** Own values followed by the halo's, taken from every block's send values (indexed by block). */
    public double[] extend(double[] own, double[][] sentByBlock) {
        double[] ext = new double[rows + halo.length];
        System.arraycopy(own, 0, ext, 0, rows);
        for (int h = 0; h < halo.length; h++) ext[rows + h] = sentByBlock[haloOwner[h]][haloSlot[h]];
        return ext;
    }

    /** Own values followed by the halo's, taken from the whole vector. */
    public double[] extendFromGlobal(double[] global) {
        double[] ext = new double[rows + halo.length];
        System.arraycopy(global, firstRow, ext, 0, rows);
        for (int h = 0; h < halo.length; h++) ext[rows + h] = global[halo[h]];
        return ext;
    }
}
