package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.points.PointCloud;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockPartitionTest {
    /** The plain recursive dual traversal: admissible pairs to {@code c}, inadmissible leaf pairs to {@code d}. */
    private static void reference(BlockPartition p, ClusterTree r, ClusterTree c, int t, int s, List<long[]> cp, List<long[]> dp) {
        if (p.admissible(t, s)) {
            cp.add(new long[] {t, s});
        } else if (r.isLeaf(t) && c.isLeaf(s)) {
            dp.add(new long[] {t - r.firstLeaf, s - c.firstLeaf});
        } else if (r.isLeaf(t)) {
            for (int b = 1; b <= 2; b++) reference(p, r, c, t, 2 * s + b, cp, dp);
        } else if (c.isLeaf(s)) {
            for (int a = 1; a <= 2; a++) reference(p, r, c, 2 * t + a, s, cp, dp);
        } else {
            for (int a = 1; a <= 2; a++) for (int b = 1; b <= 2; b++) reference(p, r, c, 2 * t + a, 2 * s + b, cp, dp);
        }
    }

    /**
     * The traversal split among the cores finds exactly the pairs of the plain recursion, sorted by row then column,
     * with block-row pointers and dense offsets to match: one 3D point set (both admissibilities), two 2D sets of
     * different sizes (trees of different depths), and a set smaller than one leaf.
     */
    @Test
    void parallelTraversalMatchesThePlainRecursion() {
        Object[][] cases = {
                {PointCloud.uniform(20000, 3, 1L), PointCloud.uniform(20000, 3, 1L), H2Options.Admissibility.BOX_CENTER, 32},
                {PointCloud.perturbedGrid(9000, 3, 2L), null, H2Options.Admissibility.BOX_DISTANCE, 40},
                {PointCloud.uniform(15000, 2, 3L), PointCloud.perturbedGrid(3000, 2, 4L), H2Options.Admissibility.BOX_DISTANCE, 20},
                {PointCloud.uniform(30, 2, 5L), null, H2Options.Admissibility.BOX_DISTANCE, 64}};
        for (Object[] cs : cases) {
            ClusterTree r = ClusterTree.build((PointCloud) cs[0], (int) cs[3]);
            ClusterTree c = cs[1] == null ? r : ClusterTree.build((PointCloud) cs[1], (int) cs[3]);
            BlockPartition p = BlockPartition.build(r, c, 1.0, (H2Options.Admissibility) cs[2]);
            List<long[]> cp = new ArrayList<>(), dp = new ArrayList<>();
            reference(p, r, c, 0, 0, cp, dp);
            cp.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
            dp.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
            assertEquals(cp.size(), p.couplingBlocks());
            assertEquals(dp.size(), p.denseBlocks());
            assertTrue(dp.size() > 0);
            for (int b = 0; b < cp.size(); b++) {
                assertEquals(cp.get(b)[0], p.couplingRow[b]);
                assertEquals(cp.get(b)[1], p.couplingCol[b]);
                assertTrue(p.couplingRowPtr[p.couplingRow[b]] <= b && b < p.couplingRowPtr[p.couplingRow[b] + 1]);
            }
            long off = 0;
            for (int b = 0; b < dp.size(); b++) {
                assertEquals(dp.get(b)[0], p.denseRow[b]);
                assertEquals(dp.get(b)[1], p.denseCol[b]);
                assertEquals(off, p.denseOffset[b]);
                int i = p.denseRow[b], j = p.denseCol[b];
                off += (long) (r.leafStart[i + 1] - r.leafStart[i]) * (c.leafStart[j + 1] - c.leafStart[j]);
            }
            assertArrayEquals(new long[] {off}, new long[] {p.denseOffset[dp.size()]});
        }
    }
}
