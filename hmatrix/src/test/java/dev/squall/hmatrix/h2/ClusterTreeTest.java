package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.points.PointCloud;
import org.junit.jupiter.api.Test;

class ClusterTreeTest {
    @Test
    void leavesHoldEqualCountsAndThePermutationIsOne() {
        for (int n : new int[] {1, 63, 64, 65, 1000, 4096}) {
            PointCloud p = PointCloud.uniform(n, 3, n);
            ClusterTree t = ClusterTree.build(p, 64);
            assertTrue(Math.ceil(n / Math.pow(2, t.depth)) <= 64, "depth " + t.depth + " for " + n);
            assertTrue(t.depth == 0 || Math.ceil(n / Math.pow(2, t.depth - 1)) > 64, "depth is the least: " + t.depth);
            boolean[] seen = new boolean[n];
            for (int a = 0; a < n; a++) {
                assertTrue(!seen[t.perm[a]]);
                seen[t.perm[a]] = true;
                for (int d = 0; d < 3; d++) assertEquals(p.coord(t.perm[a], d), t.points[a * 3 + d]);
            }
            for (int i = 0; i < t.leaves; i++) {
                int size = t.leafStart[i + 1] - t.leafStart[i];
                assertTrue(size == n >> t.depth || size == (n >> t.depth) + 1, "leaf " + i + " holds " + size);
            }
            // every node's box holds its points, and its children split its range
            for (int s = 0; s < t.nodes; s++) {
                for (int a = t.start[s]; a < t.end[s]; a++) {
                    for (int d = 0; d < 3; d++) {
                        double x = t.points[a * 3 + d];
                        assertTrue(x >= t.box[s * 6 + 2 * d] && x <= t.box[s * 6 + 2 * d + 1]);
                    }
                }
                if (!t.isLeaf(s)) {
                    assertEquals(t.start[s], t.start[2 * s + 1]);
                    assertEquals(t.end[2 * s + 1], t.start[2 * s + 2]);
                    assertEquals(t.end[s], t.end[2 * s + 2]);
                    // the split is at the median of one coordinate: left points <= right points there
                }
            }
        }
    }

    /** The traversal covers every (row, column) point pair exactly once, by coupling or dense blocks. */
    @Test
    void partitionCoversEveryEntryOnce() {
        PointCloud rows = PointCloud.uniform(700, 2, 1L);
        PointCloud cols = PointCloud.perturbedGrid(300, 2, 2L);
        ClusterTree r = ClusterTree.build(rows, 16), c = ClusterTree.build(cols, 16);
        BlockPartition bp = BlockPartition.build(r, c, 1.0);
        int[][] cover = new int[700][300];
        for (int b = 0; b < bp.couplingBlocks(); b++) {
            int t = bp.couplingRow[b], s = bp.couplingCol[b];
            assertTrue(bp.admissible(t, s));
            for (int i = r.start[t]; i < r.end[t]; i++) for (int j = c.start[s]; j < c.end[s]; j++) cover[i][j]++;
        }
        for (int b = 0; b < bp.denseBlocks(); b++) {
            int t = r.firstLeaf + bp.denseRow[b], s = c.firstLeaf + bp.denseCol[b];
            assertTrue(b == 0 || bp.denseRow[b] >= bp.denseRow[b - 1], "dense blocks sorted by row leaf");
            for (int i = r.start[t]; i < r.end[t]; i++) for (int j = c.start[s]; j < c.end[s]; j++) cover[i][j]++;
            assertEquals((long) (r.end[t] - r.start[t]) * (c.end[s] - c.start[s]), bp.denseOffset[b + 1] - bp.denseOffset[b]);
        }
        for (int i = 0; i < 700; i++) for (int j = 0; j < 300; j++) assertEquals(1, cover[i][j], "entry " + i + ", " + j);
        assertTrue(bp.couplingBlocks() > 0);
        // rows of the coupling BSR: each row's blocks are the ones listed for it
        for (int t = 0; t < r.nodes; t++) {
            for (int b = bp.couplingRowPtr[t]; b < bp.couplingRowPtr[t + 1]; b++) assertEquals(t, bp.couplingRow[b]);
        }
    }
}
