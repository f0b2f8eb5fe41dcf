package dev.squall.sparse.spmv.kernels;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.longs;
import static dev.squall.sparse.exec.DeviceArrays.values;
import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every CSR kernel, launched directly on every device in both precisions, against the sequential reference. */
class CsrKernelsF64Test {
    private static final String[] KERNELS = {"csrScalar", "csrScalarLong", "csrRowBlocks/1", "csrRowBlocks/7", "csrVector/2", "csrVector/8",
            "csrVector/32", "csrMerge/1", "csrMerge/16", "scale"};

    @TestFactory
    Stream<DynamicTest> everyKernelMatchesTheReference() {
        return KernelProducts.each(KERNELS, (d, p, kernel, what, a, rnd) -> {
            if (kernel.equals("scale") != (a.nnz() == 0)) return false; // the executors run scale exactly for matrices with no entries
            String[] k = kernel.split("/");
            int knob = k.length > 1 ? Integer.parseInt(k[1]) : 0;
            int rows = a.rows();
            IntArray rowPtr = ints(a.rowPtr()), col = ints(a.colIdx());
            KernelArray val = values(p, a.values());
            KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> switch (k[0]) {
                case "csrScalar" -> g -> g.graph().task(g.name("csr"), CsrKernels.csrScalar.at(p), rowPtr, col, val, x, y, coef, rows);
                case "csrScalarLong" -> {
                    LongArray rowPtrLong = longs(a.rowPtr());
                    yield g -> g.graph().task(g.name("csr"), CsrKernels.csrScalarLong.at(p), rowPtrLong, col, val, x, y, coef, rows);
                }
                case "csrRowBlocks" -> {
                    int blocks = (rows + knob - 1) / knob;
                    yield g -> g.graph().task(g.name("csr"), CsrKernels.csrRowBlocks.at(p), rowPtr, col, val, x, y, coef, rows, knob, blocks);
                }
                case "csrVector" -> {
                    WorkerGrid grid = WorkerGrid.of(((long) rows * knob + 255) / 256 * 256).withLocal(256);
                    yield g -> g.graph().task(g.name("csr"), grid, CsrKernels.csrVector.at(p), new KernelContext(), rowPtr, col, val, x, y, coef, rows, knob);
                }
                case "csrMerge" -> {
                    int nnz = a.nnz();
                    int items = (rows + nnz + knob - 1) / knob;
                    KernelArray carry = zeros(p, items);
                    IntArray carryRow = new IntArray(items);
                    yield g -> g.graph()
                            .task(g.name("merge"), CsrKernels.csrMerge.at(p), rowPtr, col, val, x, y, coef, carry, carryRow, rows, nnz, knob, items)
                            .task(g.name("carry-fix"), CooKernels.carryFix.at(p), y, coef, carry, carryRow, items);
                }
                default -> g -> g.graph().task(g.name("scale"), CsrKernels.scale.at(p), y, coef, rows);
            });
            return true;
        });
    }
}
