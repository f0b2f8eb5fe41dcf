package dev.squall.sparse.solve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.testing.TestMatrices;
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
}
