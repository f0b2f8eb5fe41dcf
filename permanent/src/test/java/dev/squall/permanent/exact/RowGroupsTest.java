package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class RowGroupsTest {
    @Test
    void groupsPartitionTheRowsAndTheirDegreeProductsFit32Bits() {
        for (SquareMatrix a : new SquareMatrix[] {ones(62), ones(7), randomBinary(40, 0.5, 4040), randomBinary(33, 0.1, 33), tridiagonalOnes(30)}) {
            RowGroups g = RowGroups.of(a);
            int n = a.n();
            int[] seen = new int[n];
            for (int k = 0; k < g.groups().size(); k++) {
                long bound = 1;
                for (int i : g.groups().get(k)) {
                    seen[i]++;
                    assertEquals(k, g.groupOf(i));
                    bound *= Math.max(1, degree(a, i));
                }
                assertTrue(bound <= RowGroups.MAX_GROUP_PRODUCT, "group " + k + " of n=" + n + " may reach " + bound);
            }
            int[] once = new int[n];
            Arrays.fill(once, 1);
            assertArrayEquals(once, seen, "every row in exactly one group, n=" + n);
        }
        // J_62: 62^5 < 2^32 < 62^6, so groups of 5 rows: ceil(62/5) = 13 groups
        assertEquals(13, RowGroups.of(ones(62)).groups().size());
    }

    @Test
    void aColumnTouchesExactlyTheGroupsOfItsRows() {
        SquareMatrix a = randomBinary(30, 0.2, 3030);
        RowGroups g = RowGroups.of(a);
        for (int j = 0; j < a.n(); j++) {
            boolean[] want = new boolean[g.groups().size()];
            for (int i = 0; i < a.n(); i++) if (a.get(i, j) != 0) want[g.groupOf(i)] = true;
            int[] got = g.groupsOfColumn(a, j);
            int count = 0;
            for (boolean w : want) if (w) count++;
            assertEquals(count, got.length, "column " + j);
            for (int k : got) assertTrue(want[k], "column " + j + " group " + k);
        }
    }

    private static int degree(SquareMatrix a, int i) {
        int d = 0;
        for (int j = 0; j < a.n(); j++) if (a.get(i, j) != 0) d++;
        return d;
    }
}
