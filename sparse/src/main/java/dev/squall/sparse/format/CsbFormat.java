package dev.squall.sparse.format;

/**
 * Compressed Sparse Blocks (Buluç, Fineman, Frigo, Gilbert and Leiserson, "Parallel sparse
 * matrix-vector and matrix-transpose-vector multiplication using compressed sparse blocks",
 * SPAA 2009): the matrix cut into β × β blocks; each entry keeps only its row and column inside
 * its block (16 bits each, packed in one int), so one copy of the entries serves {@code A x}
 * (blocks walked by block row) and {@code A^T x} (the same blocks walked by block column) equally
 * well, with no transposed copy. Stored blocks are the non-empty ones, in block-row-major order;
 * inside a block, entries are row-major (the paper's Z-Morton order only matters for splitting
 * dense blocks across threads, which this executor does not do).
 *
 * <pre>{@code
 * CsbFormat b = CsbFormat.from(a);          // beta chosen by the inspector (about sqrt(n))
 * CsbFormat small = CsbFormat.from(a, 64);  // beta = 64
 * b.blocks(); b.toCsr();
 * }</pre>
 *
 * @param rows        rows of the matrix
 * @param cols        columns of the matrix
 * @param beta        block side, a power of two up to 2^16
 * @param blockRowPtr first stored block of each block row ({@code ceil(rows / beta) + 1} entries)
 * @param blockRow    block row of each stored block
 * @param blockCol    block column of each stored block
 * @param blockStart  first entry of each stored block, and nnz at the end
 * @param colBlockPtr first position in {@code colBlocks} of each block column ({@code ceil(cols / beta) + 1} entries)
 * @param colBlocks   the stored blocks ordered by block column (then block row): the walk of {@code A^T}
 * @param packed      per entry, {@code (row in block) << 16 | (column in block)}
 * @param val         per entry, its value
 */
public record CsbFormat(int rows, int cols, int beta, int[] blockRowPtr, int[] blockRow, int[] blockCol, int[] blockStart,
                        int[] colBlockPtr, int[] colBlocks, int[] packed, double[] val) {
    /** Largest block side: in-block indices must fit 16 bits. */
    public static final int MAX_BETA = 1 << 16;

    /** The inspector with β the power of two nearest {@code sqrt(max(rows, cols))}, at least 16 (the paper's choice). */
    public static CsbFormat from(CsrMatrix a) {
        int n = Math.max(1, Math.max(a.rows(), a.cols()));
        int beta = 16;
        while (beta < MAX_BETA && (long) beta * beta * 2 < n) beta <<= 1;
        return from(a, beta);
    }

    /** The inspector with block side {@code beta} (a power of two, 1 to 2^16). */
    public static CsbFormat from(CsrMatrix a, int beta) {
        if (beta < 1 || beta > MAX_BETA || Integer.bitCount(beta) != 1) {
            throw new IllegalArgumentException("CSB block side " + beta + " must be a power of two from 1 to " + MAX_BETA);
        }
        int shift = Integer.numberOfTrailingZeros(beta);
        int blockRows = (a.rows() + beta - 1) >>> shift;
        int blockCols = (a.cols() + beta - 1) >>> shift;
        int[] rowPtr = a.rowPtr();
        int[] col = a.colIdx();
        double[] v = a.values();
        // per block row: count entries per block column (a marker array, reset after each block row)
        int[] count = new int[blockCols];
        int[] slot = new int[blockCols];
        java.util.Arrays.fill(slot, -1);
        int[] blockRowPtr = new int[blockRows + 1];
        int stored = 0;
        for (int br = 0; br < blockRows; br++) {
            int i1 = Math.min((br + 1) << shift, a.rows());
            for (int k = rowPtr[br << shift]; k < rowPtr[i1]; k++) {
                int bc = col[k] >>> shift;
                if (slot[bc] != br) {
                    slot[bc] = br;
                    stored++;
                }
            }
            blockRowPtr[br + 1] = stored;
        }
        int[] blockRow = new int[stored];
        int[] blockCol = new int[stored];
        int[] blockStart = new int[stored + 1];
        int[] packed = new int[a.nnz()];
        double[] val = new double[a.nnz()];
        java.util.Arrays.fill(slot, -1);
        int b = 0;
        int at = 0;
        for (int br = 0; br < blockRows; br++) {
            int i0 = br << shift;
            int i1 = Math.min(i0 + beta, a.rows());
            // the block row's block columns, ascending, then each block's entries row by row
            int first = b;
            for (int k = rowPtr[i0]; k < rowPtr[i1]; k++) {
                int bc = col[k] >>> shift;
                if (slot[bc] < 0) {
                    slot[bc] = 0;
                    blockCol[b++] = bc;
                }
            }
            java.util.Arrays.sort(blockCol, first, b);
            for (int q = first; q < b; q++) {
                blockRow[q] = br;
                count[blockCol[q]] = 0;
            }
            for (int k = rowPtr[i0]; k < rowPtr[i1]; k++) count[col[k] >>> shift]++;
            for (int q = first; q < b; q++) {
                blockStart[q] = at;
                slot[blockCol[q]] = at;  // next free position of this block
                at += count[blockCol[q]];
            }
            for (int i = i0; i < i1; i++) {
                for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
                    int p = slot[col[k] >>> shift]++;
                    packed[p] = (i - i0) << 16 | (col[k] & (beta - 1));
                    val[p] = v[k];
                }
            }
            for (int q = first; q < b; q++) slot[blockCol[q]] = -1;
        }
        blockStart[stored] = at;
        // the walk by block column: a counting sort of the blocks (stable, so block rows stay ascending)
        int[] colBlockPtr = new int[blockCols + 1];
        for (int q = 0; q < stored; q++) colBlockPtr[blockCol[q] + 1]++;
        for (int c = 0; c < blockCols; c++) colBlockPtr[c + 1] += colBlockPtr[c];
        int[] next = java.util.Arrays.copyOf(colBlockPtr, blockCols);
        int[] colBlocks = new int[stored];
        for (int q = 0; q < stored; q++) colBlocks[next[blockCol[q]]++] = q;
        return new CsbFormat(a.rows(), a.cols(), beta, blockRowPtr, blockRow, blockCol, blockStart, colBlockPtr, colBlocks, packed, val);
    }

    /** Stored (non-empty) blocks. */
    public int blocks() {
        return blockCol.length;
    }

    /** Back to CSR: per row, its runs from the block row's blocks in block-column order; explicit zeros kept. */
    public CsrMatrix toCsr() {
        int nnz = packed.length;
        int[] ptr = new int[rows + 1];
        for (int q = 0; q < blocks(); q++) {
            int i0 = blockRow[q] * beta;
            for (int e = blockStart[q]; e < blockStart[q + 1]; e++) ptr[i0 + (packed[e] >>> 16) + 1]++;
        }
        for (int i = 0; i < rows; i++) ptr[i + 1] += ptr[i];
        int[] fill = java.util.Arrays.copyOf(ptr, rows);
        int[] col = new int[nnz];
        double[] v = new double[nnz];
        for (int q = 0; q < blocks(); q++) {  // blocks of a block row ascend by column, so each row's columns ascend
            int i0 = blockRow[q] * beta;
            int j0 = blockCol[q] * beta;
            for (int e = blockStart[q]; e < blockStart[q + 1]; e++) {
                int t = fill[i0 + (packed[e] >>> 16)]++;
                col[t] = j0 + (packed[e] & 0xFFFF);
                v[t] = val[e];
            }
        }
        return CsrMatrix.of(rows, cols, ptr, col, v);
    }
}
