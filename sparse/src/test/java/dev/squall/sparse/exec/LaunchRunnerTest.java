package dev.squall.sparse.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.kernels.CsrKernels;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The runner's uploads, single calls and batches, on every device and precision. */
class LaunchRunnerTest {
    private static final String[] HOW = {"typed"};

    @TestFactory
    Stream<DynamicTest> aBatchRunsItsCallsBackToBackAndDirtyInputsAreCopiedFirst() {
        return DeviceCases.each(HOW, d -> "", (d, p, how) -> {
            int n = 1000;
            double[] y0 = new double[n];
            for (int i = 0; i < n; i++) y0[i] = (i % 13) - 6.5; // halves: exact in float, and so are their powers-of-two multiples
            KernelArray y = DeviceArrays.values(p, y0);
            KernelArray coef = DeviceArrays.values(p, new double[] {1, 2}); // each call: y = 2 y
            LaunchRunner.Launches launches = g -> g.graph().task(g.name("test/scale"), CsrKernels.scale.at(p), y, coef, n);
            try (LaunchRunner r = new LaunchRunner("runnerTest", d, launches, y, coef)) {
                r.execute();
                r.copyBack(y);
                assertScaled(y0, 2, y, "one call");
                double ms = r.batchMillis(3);
                assertTrue(ms >= 0, "time per call " + ms);
                r.copyBack(y);
                assertScaled(y0, 16, y, "one call then a batch of 3");
                Precision.write(y, y0);
                r.markDirty();
                r.execute();
                r.copyBack(y);
                assertScaled(y0, 2, y, "after the host rewrote y");
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> anSpmdKernelGetsItsGridInSingleCallsAndBatches() {
        return DeviceCases.each(HOW, d -> "", (d, p, how) -> {
            CsrMatrix a = TestMatrices.randomSparse(new Random(5), 300, 200, 0.05, 7);
            double[] x0 = new Random(6).doubles(a.cols(), -1, 1).toArray();
            int lanes = 4;
            int group = 64;
            WorkerGrid grid = WorkerGrid.of((long) (a.rows() * lanes + group - 1) / group * group).withLocal(group);
            IntArray rowPtr = DeviceArrays.ints(a.rowPtr()), col = DeviceArrays.ints(a.colIdx());
            KernelArray val = DeviceArrays.values(p, a.values()), x = DeviceArrays.values(p, x0);
            KernelArray y = DeviceArrays.values(p, DeviceCases.poison(a.rows())), coef = DeviceArrays.values(p, new double[] {1, 0});
            int rows = a.rows();
            LaunchRunner.Launches launches = g -> g.graph().task(g.name("test/rows"), grid, CsrKernels.csrVector.at(p), new KernelContext(),
                    rowPtr, col, val, x, y, coef, rows, lanes);
            try (LaunchRunner r = new LaunchRunner("runnerTest", d, launches, x, y, coef)) {
                r.execute();
                r.copyBack(y);
                assertProduct(a, x0, p, y, "one call");
                Precision.write(y, DeviceCases.poison(rows));
                r.markDirty();
                r.batchMillis(4);
                r.copyBack(y);
                assertProduct(a, x0, p, y, "a batch of 4 (beta 0: as one call)");
            }
        });
    }

    private static void assertScaled(double[] y0, double factor, KernelArray got, String what) {
        double[] g = Precision.read(got, y0.length);
        for (int i = 0; i < y0.length; i++) assertEquals(factor * y0[i], g[i], 0.0, what + ": y[" + i + "]");
    }

    /** Each row within {@code 2 (len + 2) u sum |a_ij x_j|} of the sequential product of the rounded inputs. */
    private static void assertProduct(CsrMatrix a, double[] x0, Precision p, KernelArray got, String what) {
        double[] v = a.values();
        double[] xr = x0.clone();
        if (p == Precision.FP32) {
            for (int k = 0; k < v.length; k++) v[k] = (float) v[k];
            for (int j = 0; j < xr.length; j++) xr[j] = (float) xr[j];
        }
        CsrMatrix ar = CsrMatrix.of(a.rows(), a.cols(), a.rowPtr(), a.colIdx(), v);
        double[] want = ReferenceSpmv.multiply(ar, xr);
        double[] g = Precision.read(got, a.rows());
        for (int i = 0; i < a.rows(); i++) {
            double abs = 0;
            for (int k = ar.rowStart(i); k < ar.rowStart(i + 1); k++) abs += Math.abs(ar.value(k) * xr[ar.colIndex(k)]);
            double bound = 2 * (ar.rowLength(i) + 2) * p.epsilon() * abs + Double.MIN_NORMAL;
            assertTrue(Math.abs(g[i] - want[i]) <= bound, what + ": y[" + i + "] = " + g[i] + ", expected " + want[i] + " (bound " + bound + ")");
        }
    }
}
