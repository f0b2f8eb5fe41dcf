package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.h2.H2Structure;
import dev.squall.hmatrix.points.PointCloud;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The cut's bookkeeping, against the whole matrix's block lists: every block once, halos and sends consistent. */
class SubtreeCutTest {
    @Test
    void everyBlockIsInExactlyOnePartOrTheTopAndHalosMatchSends() {
        H2Structure[] structures = {
                H2Structure.of(PointCloud.perturbedGrid(3001, 2, 1L), H2Options.defaults().withOrder(4).withLeafSize(25)),
                H2Structure.of(PointCloud.uniform(2222, 3, 2L), H2Options.defaults().withOrder(2).withLeafSize(17)
                        .withAdmissibility(H2Options.Admissibility.BOX_CENTER)),
        };
        for (H2Structure s : structures) {
            int[] cptr = s.couplingRowPtr(), ccol = s.couplingCol(), dptr = s.denseRowPtr(), dcol = s.denseCol(), ls = s.leafStart();
            for (int level = 0; level <= s.depth(); level++) {
                SubtreeCut cut = SubtreeCut.of(s, "exp:1", level);
                assertEquals(1 << level, cut.parts().size());
                int top = (2 << level) - 1;
                Set<Long> couplings = new HashSet<>(), dense = new HashSet<>();
                for (int b = 0; b < cptr[top]; b++) couplings.add(key(rowOf(cptr, b), ccol[b])); // the top's rows
                int points = 0;
                for (SubtreePart p : cut.parts()) {
                    assertEquals(points, p.firstPoint(), "parts cover the points in tree order");
                    points += p.size();
                    int own = p.ownNodes();
                    for (int b = 0; b < p.couplingRow().length; b++) {
                        int t = p.couplingRow()[b], c = p.couplingCol()[b];
                        assertEquals(p.part(), SubtreeCut.owner(t, level));
                        assertTrue(couplings.add(key(t, c)), "block (" + t + ", " + c + ") twice");
                        int col = p.couplingColumn()[b];
                        if (SubtreeCut.owner(c, level) == p.part()) assertEquals(p.rankStart()[c], col * p.rank(), "own column slot");
                        else assertEquals(c, p.haloNodes()[col - own], "halo column");
                    }
                    for (int h : p.haloNodes()) {
                        SubtreePart o = cut.parts().get(SubtreeCut.owner(h, level));
                        assertNotEquals(p.part(), o.part());
                        assertTrue(Arrays.binarySearch(o.sendNodes(), h) >= 0, "node " + h + " is sent by its owner");
                    }
                    int lf0 = p.part() << (s.depth() - level);
                    for (int b = 0; b < p.denseRow().length; b++) {
                        int i = p.denseRow()[b] + lf0, c = p.denseColumn()[b];
                        int j = c < p.ownLeaves() ? c + lf0 : p.haloLeaves()[c - p.ownLeaves()];
                        assertTrue(dense.add(key(i, j)), "dense block twice");
                        int len = p.columnLeafStart()[c + 1] - p.columnLeafStart()[c];
                        assertEquals(ls[j + 1] - ls[j], len, "column leaf size");
                    }
                    for (int h = 0; h < p.haloLeaves().length; h++) assertEquals(ls[p.haloLeaves()[h]], p.haloLeafFirstPoint()[h]);
                }
                assertEquals(s.size(), points);
                assertEquals(ccol.length, couplings.size(), "every coupling block once, level " + level);
                assertEquals(dcol.length, dense.size(), "every dense block once, level " + level);
            }
        }
        H2Structure s = structures[0];
        assertThrows(IllegalArgumentException.class, () -> SubtreeCut.of(s, "exp:1", s.depth() + 1));
        assertThrows(IllegalArgumentException.class, () -> SubtreeCut.of(s, "exp:1", -1));
    }

    static long key(int a, int b) {
        return ((long) a << 32) | b;
    }

    static int rowOf(int[] ptr, int b) {
        int t = 0;
        while (ptr[t + 1] <= b) t++;
        return t;
    }
}
