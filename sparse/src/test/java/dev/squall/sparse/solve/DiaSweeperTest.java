package dev.squall.sparse.solve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.testing.TestData;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DiaSweeperTest {
    @Test
    void offsetsAreTheDistinctDiagonalsOrNullPastTheLimit() {
        Map<String, CsrMatrix> ms = new LinkedHashMap<>(TestMatrices.all());
        ms.put("27pt 13x9x7", Stencils.of(27, 13, 9, 7));
        ms.put("7pt 5x5x5", Stencils.of(7, 5, 5, 5));
        for (Map.Entry<String, CsrMatrix> e : ms.entrySet()) {
            CsrMatrix a = e.getValue();
            TreeSet<Integer> want = new TreeSet<>();
            for (int i = 0; i < a.rows(); i++) {
                for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) if (a.colIndex(q) != i) want.add(a.colIndex(q) - i);
            }
            for (int max : new int[] {1, 6, 26, 64}) {
                int[] got = DiaSweeper.offsets(a, max);
                if (want.size() > max) {
                    assertNull(got, e.getKey() + " max " + max);
                } else {
                    assertArrayEquals(want.stream().mapToInt(Integer::intValue).toArray(), got, e.getKey() + " max " + max);
                }
            }
        }
    }

    @Test
    void autoTakesDiaOnGpusForStencilsOnly() throws Exception {
        Device any = TestDevices.all().get(0); // the schedule is requested, so the device does not choose it
        CsrMatrix stencil = Stencils.of(27, 12, 10, 9);
        CsrMatrix mesh = MatrixMarketReader.read(TestData.file("ani4.mtx"));
        for (Precision p : Precision.values()) {
            Sweeper s = Sweeper.create(DeviceMatrix.of(stencil, p), GaussSeidel.Plan.of(stencil, GaussSeidel.Ordering.COLOURS, any), p, 256,
                    Sweeper.Layout.AUTO, true);
            assertInstanceOf(DiaSweeper.class, s, s.layout());
            assertTrue(s.layout().contains("26 diagonals"), s.layout());
            assertInstanceOf(CsrSweeper.class, Sweeper.create(DeviceMatrix.of(stencil, p), GaussSeidel.Plan.of(stencil, GaussSeidel.Ordering.COLOURS, any),
                    p, 256, Sweeper.Layout.AUTO, false));
            Sweeper m = Sweeper.create(DeviceMatrix.of(mesh, p), GaussSeidel.Plan.of(mesh, GaussSeidel.Ordering.COLOURS, any), p, 256, Sweeper.Layout.AUTO, true);
            assertFalse(m instanceof DiaSweeper, m.layout());
        }
    }
}
