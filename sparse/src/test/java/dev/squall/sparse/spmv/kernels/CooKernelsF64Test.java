package dev.squall.sparse.spmv.kernels;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;
import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.format.CooFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The COO chunks and the carry pass, launched directly with chunks of 1, 3 and 256 entries (rows split across many
 * work-items, and rows with no entries written by the chunk before them), against the reference.
 */
class CooKernelsF64Test {
    private static final Integer[] CHUNKS = {1, 3, 256};

    @TestFactory
    Stream<DynamicTest> chunksAndCarriesMatchTheReference() {
        return KernelProducts.each(CHUNKS, (d, p, chunk, what, a, rnd) -> {
            if (a.nnz() == 0) return false; // the executors run CsrKernelsF64.scale for these
            CooFormat f = CooFormat.from(a);
            int nnz = f.nnz(), rows = f.rows();
            int chunks = (nnz + chunk - 1) / chunk;
            IntArray row = ints(f.row()), col = ints(f.col());
            KernelArray val = values(p, f.val());
            KernelArray carry = zeros(p, chunks);
            IntArray carryRow = new IntArray(chunks);
            KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> g -> g.graph()
                    .task(g.name("chunks"), CooKernels.cooChunks.at(p), row, col, val, x, y, coef, carry, carryRow, nnz, rows, chunk, chunks, 1)
                    .task(g.name("carry-fix"), CooKernels.carryFix.at(p), y, coef, carry, carryRow, chunks));
            return true;
        });
    }
}
