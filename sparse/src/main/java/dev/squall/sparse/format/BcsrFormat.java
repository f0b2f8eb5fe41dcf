package dev.squall.sparse.format;

import java.util.Arrays;

/**
 * Block CSR: the matrix cut into R x C blocks; each stored block holds its R*C values row-major,
 * its block column, and a bit mask of which slots are entries (so explicit zeros stay distinct
 * from padding, and the executor never multiplies padding by x). The inspector picks R and C
 * (1..4 each) that move the fewest bytes per product: stored blocks times (R*C values + index
 * + mask) plus block-row pointers.
 *
 * <pre>{@code
 * BcsrFormat b = BcsrFormat.from(a, 8);            // R x C chosen for 8-byte values
 * BcsrFormat fixed = BcsrFormat.from(a, 2, 3);     // R = 2, C = 3
 * b.r(); b.c(); b.blocks(); b.toCsr();
 * }</pre>
 *
 * @param rows      rows of the matrix
 * @param cols      columns of the matrix
 * @param r         block rows
 * @param c         block columns
 * @param blockPtr  first block of each block row ({@code ceil(rows / r) + 1} entries)
 * @param blockCol  block column of each block
 * @param mask      bit {@code i * c + j} set where slot (i, j) of the block is an entry
 * @param val       {@code r * c} values per block, row-major; 0 in padding slots
 */
public record BcsrFormat(int rows, int cols, int r, int c, int[] blockPtr, int[] blockCol, int[] mask, double[] val) {
    /** Largest block side the inspector tries. */
    public static final int MAX_SIDE = 4;

    /**
     * A block shape and what it costs.
     *
     * @param blocks stored blocks
     * @param bytes  counted bytes of the matrix per product: blocks (values, index, mask) and block-row pointers
     * @param fill   entries per stored slot
     */
    public record Shape(int r, int c, long blocks, long bytes, double fill) {
    }

    /** The shape with the fewest counted bytes for values of {@code valueBytes} bytes (R, C in 1..4). */
    public static Shape bestShape(CsrMatrix a, int valueBytes) {
        Shape best = null;
        for (int r = 1; r <= MAX_SIDE; r++) {
            for (int c = 1; c <= MAX_SIDE; c++) {
                Shape s = shape(a, r, c, valueBytes);
                if (best == null || s.bytes() < best.bytes()) best = s;
            }
        }
        return best;
    }

    /** The cost of an R x C tiling (one counting pass over the entries). */
    public static Shape shape(CsrMatrix a, int r, int c, int valueBytes) {
        long blocks = countBlocks(a, r, c);
        long bytes = blocks * ((long) r * c * valueBytes + 8) + 4L * ((a.rows() + r - 1) / r + 1);
        return new Shape(r, c, blocks, bytes, blocks == 0 ? 1 : (double) a.nnz() / (blocks * r * c));
    }

    /** The inspector: R x C with the fewest counted bytes for values of {@code valueBytes} bytes. */
    public static BcsrFormat from(CsrMatrix a, int valueBytes) {
        Shape s = bestShape(a, valueBytes);
        return from(a, s.r(), s.c());
    }

    /** The inspector with fixed block sizes. */
    public static BcsrFormat from(CsrMatrix a, int r, int c) {
        if (r < 1 || c < 1 || r * c > 32) throw new IllegalArgumentException("block " + r + " x " + c + ": sides must be >= 1 and r * c <= 32");
        long blocks = countBlocks(a, r, c);
        if (blocks * r * c > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("BCSR " + r + "x" + c + " would store " + blocks * r * c + " slots");
        int blockRows = (a.rows() + r - 1) / r;
        int[] ptr = new int[blockRows + 1];
        int[] bcol = new int[(int) blocks];
        int[] mask = new int[(int) blocks];
        double[] val = new double[(int) (blocks * r * c)];
        int[] slot = new int[(a.cols() + c - 1) / c];
        Arrays.fill(slot, -1);
        int nb = 0;
        for (int br = 0; br < blockRows; br++) {
            int i0 = br * r;
            int i1 = Math.min(i0 + r, a.rows());
            int first = nb;
            // block columns of this block row, ascending
            int n = 0;
            int[] seen = new int[16];
            for (int i = i0; i < i1; i++) {
                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                    int bc = a.colIndex(k) / c;
                    if (slot[bc] < 0) {
                        slot[bc] = 0;
                        if (n == seen.length) seen = Arrays.copyOf(seen, 2 * n);
                        seen[n++] = bc;
                    }
                }
            }
            Arrays.sort(seen, 0, n);
            for (int q = 0; q < n; q++) {
                slot[seen[q]] = nb;
                bcol[nb++] = seen[q];
            }
            for (int i = i0; i < i1; i++) {
                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                    int j = a.colIndex(k);
                    int b = slot[j / c];
                    int s = (i - i0) * c + (j - (j / c) * c);
                    mask[b] |= 1 << s;
                    val[b * r * c + s] = a.value(k);
                }
            }
            for (int q = first; q < nb; q++) slot[bcol[q]] = -1;
            ptr[br + 1] = nb;
        }
        return new BcsrFormat(a.rows(), a.cols(), r, c, ptr, bcol, mask, val);
    }

    /** Stored blocks of an R x C tiling (a pass over the entries with a marker per block column). */
    static long countBlocks(CsrMatrix a, int r, int c) {
        int[] mark = new int[(a.cols() + c - 1) / c];
        Arrays.fill(mark, -1);
        long blocks = 0;
        for (int i = 0; i < a.rows(); i++) {
            int br = i / r;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int bc = a.colIndex(k) / c;
                if (mark[bc] != br) {
                    mark[bc] = br;
                    blocks++;
                }
            }
        }
        return blocks;
    }

    /** Stored blocks. */
    public int blocks() {
        return blockCol.length;
    }

    /** Back to CSR: the masked slots, in order; padding dropped, explicit zeros kept. */
    public CsrMatrix toCsr() {
        int[] ptr = new int[rows + 1];
        int nnz = 0;
        for (int b = 0; b < blocks(); b++) nnz += Integer.bitCount(mask[b]);
        int[] col = new int[nnz];
        double[] v = new double[nnz];
        int t = 0;
        for (int br = 0; br + 1 < blockPtr.length; br++) {
            for (int i = 0; i < r && br * r + i < rows; i++) {
                for (int b = blockPtr[br]; b < blockPtr[br + 1]; b++) {
                    for (int j = 0; j < c; j++) {
                        if ((mask[b] >>> (i * c + j) & 1) != 0) {
                            col[t] = blockCol[b] * c + j;
                            v[t++] = val[b * r * c + i * c + j];
                        }
                    }
                }
                ptr[br * r + i + 1] = t;
            }
        }
        return CsrMatrix.of(rows, cols, ptr, col, v);
    }
}
