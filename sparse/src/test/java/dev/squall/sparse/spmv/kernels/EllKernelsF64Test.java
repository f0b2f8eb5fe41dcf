package dev.squall.sparse.spmv.kernels;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.EllFormat;
import dev.squall.sparse.format.SellFormat;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The ELL and SELL-C-sigma kernels (chunk heights that do and do not divide the rows), launched directly, against the reference. */
class EllKernelsF64Test {
    private static final String[] KERNELS = {"ell", "sell/4/8", "sell/32/512", "sell/3/1"};

    @TestFactory
    Stream<DynamicTest> everyKernelMatchesTheReference() {
        return KernelProducts.each(KERNELS, (d, p, kernel, what, a, rnd) -> {
            if (a.nnz() == 0) return false; // the executors run CsrKernelsF64.scale for these
            if (kernel.equals("ell")) {
                EllFormat f;
                try {
                    f = EllFormat.from(a);
                } catch (IllegalArgumentException tooMuchPadding) {
                    return false; // refused by the format (SpmvExecutorTest checks the refusal)
                }
                IntArray rowLen = ints(f.rowLen()), col = ints(f.col());
                KernelArray val = values(p, f.val());
                int rows = f.rows();
                KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> g -> g.graph().task(g.name("ell"), EllKernels.ell.at(p), rowLen, col, val, x, y, coef, rows));
            } else {
                String[] k = kernel.split("/");
                int c = Integer.parseInt(k[1]);
                SellFormat f = SellFormat.from(a, c, Integer.parseInt(k[2]));
                IntArray chunkPtr = ints(f.chunkPtr()), slotLen = ints(f.slotLen()), perm = ints(f.perm()), col = ints(f.col());
                KernelArray val = values(p, f.val());
                int slots = f.slots();
                KernelProducts.check(what, a, d, p, rnd, (x, y, coef) -> g -> g.graph().task(g.name("sell"), EllKernels.sell.at(p), chunkPtr, slotLen, perm,
                        col, val, x, y, coef, slots, c));
            }
            return true;
        });
    }
}
