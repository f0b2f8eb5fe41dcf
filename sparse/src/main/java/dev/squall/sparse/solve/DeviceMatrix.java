package dev.squall.sparse.solve;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.inspect.Diagonal;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

/**
 * A square matrix as the sweeps read it: CSR arrays and the position of each diagonal entry, in kernel arrays of
 * precision {@code p} that tasks copy to the device on first use and keep there.
 *
 * @param matrix  the host matrix
 * @param rowPtr  row pointers
 * @param col     column indices (sorted in each row)
 * @param val     values
 * @param diagPos entry index of each row's diagonal
 */
public record DeviceMatrix(CsrMatrix matrix, IntArray rowPtr, IntArray col, KernelArray val, IntArray diagPos) {
    /**
     * The arrays of {@code a} at precision {@code p}.
     *
     * @throws IllegalArgumentException naming the first row whose diagonal is missing or zero, or if {@code a} is not square
     */
    public static DeviceMatrix of(CsrMatrix a, Precision p) {
        int[] diag = Diagonal.positions(a);
        return new DeviceMatrix(a, ints(a.rowPtr()), ints(a.colIdx()), values(p, a.values()), ints(diag));
    }

    /** Rows (= columns). */
    public int rows() {
        return matrix.rows();
    }
}
