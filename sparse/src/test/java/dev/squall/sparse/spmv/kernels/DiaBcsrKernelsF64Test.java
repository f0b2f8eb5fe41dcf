package dev.squall.sparse.spmv.kernels;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;

import dev.squall.sparse.format.BcsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.DiaFormat;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The DIA kernel and the BCSR kernel (block shapes that do and do not divide the matrix), launched directly, against the reference. */
class DiaBcsrKernelsF64Test {
    private static final String[] KERNELS = {"dia", "bcsr/1/1", "bcsr/2/2", "bcsr/3/2", "bcsr/4/4", "bcsr/1/4"};

    @TestFactory
    Stream<DynamicTest> everyKernelMatchesTheReference() {
        return KernelProducts.each(KERNELS, (d, p, kernel, what, a, rnd) -> {
            if (a.nnz() == 0) return false; // the executors run CsrKernelsF64.scale for these
            int rows = a.rows();
            if (kernel.equals("dia")) {
                DiaFormat f;
                try {
                    f = DiaFormat.from(a);
                } catch (IllegalArgumentException scattered) {
                    return false; // refused by the format (SpmvExecutorTest checks the refusal)
                }
                IntArray offsets = ints(f.offsets());
                KernelArray val = values(p, f.val());
                int cols = a.cols(), diagonals = f.diagonals();
                KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> g -> g.graph().task(g.name("dia"), DiaBcsrKernels.dia.at(p), offsets, val, x, y, coef,
                        rows, cols, diagonals));
            } else {
                String[] k = kernel.split("/");
                BcsrFormat f = BcsrFormat.from(a, Integer.parseInt(k[1]), Integer.parseInt(k[2]));
                IntArray blockPtr = ints(f.blockPtr()), blockCol = ints(f.blockCol()), mask = ints(f.mask());
                KernelArray val = values(p, f.val());
                int r = f.r(), c = f.c();
                KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> g -> g.graph().task(g.name("bcsr"), DiaBcsrKernels.bcsr.at(p), blockPtr, blockCol,
                        mask, val, x, y, coef, rows, r, c));
            }
            return true;
        });
    }
}
