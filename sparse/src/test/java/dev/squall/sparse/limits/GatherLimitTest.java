package dev.squall.sparse.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The gather-limit kernel sums, per work-item, exactly the entries of its stride over its group's range. */
class GatherLimitTest {
    @TestFactory
    Stream<DynamicTest> workItemSumsMatchTheirEntries() {
        return DeviceCases.each(new String[] {"gather-limit"}, d -> "", (d, p, name) -> {
            Random rnd = new Random(5 + p.ordinal());
            for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
                CsrMatrix a = e.getValue();
                if (a.nnz() == 0) continue;
                String what = d.id() + " " + p + " " + e.getKey();
                double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
                BinnedCsrFormat b = BinnedCsrFormat.from(a, GatherLimit.GROUP, BinnedCsrFormat.GPU_SEGMENT);
                try (GatherLimit g = new GatherLimit(a, p, d, x)) {
                    double[] got = g.sums();
                    int per = g.perGroup();
                    double u = p == Precision.FP32 ? 0x1p-24 : 0x1p-53;
                    double total = 0;
                    for (int t = 0; t < got.length; t++) {
                        int grp = t / GatherLimit.GROUP;
                        int k1 = (int) Math.min((long) (grp + 1) * per, a.nnz());
                        double want = 0;
                        double abs = 0;
                        int n = 0;
                        for (long k = (long) grp * per + t % GatherLimit.GROUP; k < k1; k += GatherLimit.GROUP) {
                            double v = p == Precision.FP32 ? (float) b.entryVal()[(int) k] : b.entryVal()[(int) k];
                            double xv = p == Precision.FP32 ? (float) x[b.entryCol()[(int) k]] : x[b.entryCol()[(int) k]];
                            want += v * xv;
                            abs += Math.abs(v * xv);
                            n++;
                        }
                        total += n;
                        double bound = 2 * (n + 4) * u * abs + Double.MIN_NORMAL;
                        if (!(Math.abs(got[t] - want) <= bound)) fail(what + ": work-item " + t + " = " + got[t] + ", expected " + want);
                    }
                    assertEquals(a.nnz(), total, what + ": every entry once");
                    assertTrue(g.millis(2, 2) >= 0, what);
                }
            }
        });
    }

    @Test
    void refusesAnEmptyMatrix() {
        CsrMatrix a = CsrMatrix.fromCoo(3, 3, new int[0], new int[0], new double[0]);
        assertThrows(IllegalArgumentException.class, () -> new GatherLimit(a, Precision.FP64, Devices.jvm()));
    }
}
