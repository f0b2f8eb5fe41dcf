package dev.squall.spark;

import dev.squall.permanent.Method;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.spark.permanent.DistributedPermanent;
import dev.squall.spark.sparse.DistributedCsr;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** The README's Java example, as written there (smaller sizes), checked against single-process references. */
class ReadmeExampleTest {
    @Test
    void readmeExampleRuns() {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(16, 0.5, 1);
        CsrMatrix h = Stencils.hpcg(6, 6, 6);
        double[] b = new double[h.rows()];
        Arrays.fill(b, 1);
        // --- as in README.md ---
        try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf("local[2]", "readme"))) {
            DistributedPermanent.Result p = new DistributedPermanent(sc).method(Method.DENSE).chunksPerSlot(4)
                    .devices(TaskDevices.fallingBackTo("jvm").localGpus(false)).compute(a);
            System.out.println(p.value().toText() + " from " + p.chunks() + " chunks on " + p.devices());
            try (DistributedCsr m = DistributedCsr.of(sc, h, 2, TaskDevices.fallingBackTo("jvm").localGpus(false))) {
                DistributedCsr.CgResult r = m.cgBarrier(b, 1e-10, 500);
                System.out.println(r.iterations() + " iterations, |r|/|b| = " + r.relResidual());
                // --- end ---
                assertTrue(r.converged());
                double[] ax = m.multiply(r.x());
                for (int i = 0; i < b.length; i++) assertEquals(b[i], ax[i], 1e-8);
            }
            assertEquals(Double.doubleToLongBits(new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled())), Double.doubleToLongBits(p.sweepValue()));
            assertEquals(8, p.chunks());
        }
    }
}
