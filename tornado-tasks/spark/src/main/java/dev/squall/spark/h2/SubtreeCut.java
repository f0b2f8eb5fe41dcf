package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Structure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * An H2 matrix's structure cut at tree level {@code L}: {@code 2^L} parts, part {@code a} the subtree under node
 * {@code 2^L - 1 + a} ({@link SubtreePart}), and the top (levels {@code 0 .. L}: transfers up to the roots of the parts,
 * couplings of the rows on levels {@code <= L}) that the driver runs ({@link TopTree}). Coupling blocks join nodes of
 * one level, so a part's rows below its root read column nodes of its own subtree or halo nodes of other parts on the
 * same level; its dense leaf rows read its own leaves or halo leaves.
 *
 * @param structure the whole matrix's structure
 * @param level     the level of the cut
 * @param parts     the parts, in part order
 */
record SubtreeCut(H2Structure structure, int level, List<SubtreePart> parts) {

    /** Cuts {@code s} at {@code level} ({@code 0 <= level <= depth}). */
    static SubtreeCut of(H2Structure s, String kernel, int level) {
        int depth = s.depth();
        if (level < 0 || level > depth) {
            throw new IllegalArgumentException("the cut level must be in [0, " + depth + "] (the tree's depth for " + s.size()
                    + " points in leaves of " + s.options().leafSize() + "), not " + level);
        }
        int nodes = (2 << depth) - 1, k = s.rank(), dim = s.dim(), m = s.options().leafSize();
        int[] ls = s.leafStart(), cptr = s.couplingRowPtr(), ccol = s.couplingCol(), dptr = s.denseRowPtr(), dcol = s.denseCol();
        double[] pts = s.treePoints(), boxes = s.boxes();
        int parts = 1 << level, d = depth - level, own = (2 << d) - 1, ownLeaves = 1 << d;
        long kk = (long) k * k;
        List<int[]> halos = new ArrayList<>();
        List<Object[]> built = new ArrayList<>();
        for (int a = 0; a < parts; a++) {
            int root = parts - 1 + a;
            int lf0 = a * ownLeaves, lf1 = lf0 + ownLeaves;
            int p0 = ls[lf0], p1 = ls[lf1], na = p1 - p0;
            double[] points = Arrays.copyOfRange(pts, p0 * dim, p1 * dim);
            int[] leafStart = new int[ownLeaves + 1];
            int[] pointLeaf = new int[na];
            for (int i = 0; i <= ownLeaves; i++) leafStart[i] = ls[lf0 + i] - p0;
            for (int i = 0; i < ownLeaves; i++) Arrays.fill(pointLeaf, leafStart[i], leafStart[i + 1], i);
            // the subtree's nodes: own slots in whole-tree order, local BFS numbers for the transfer kernel
            int[] rankStart = new int[nodes + 1];
            long[] transferOffset = new long[nodes + 1];
            double[] localBoxes = new double[own * 6];
            boolean[] mine = new boolean[nodes];
            for (int j = 0, u = 0; j <= d; j++) {
                int g0 = ((root + 1) << j) - 1;
                for (int i = 0; i < (1 << j); i++, u++) {
                    int g = g0 + i;
                    mine[g] = true;
                    System.arraycopy(boxes, g * 6, localBoxes, u * 6, 6);
                    transferOffset[g] = u == 0 ? 0 : (u - 1) * kk;
                }
            }
            for (int g = 0; g < nodes; g++) rankStart[g + 1] = rankStart[g] + (mine[g] ? k : 0);
            // coupling rows below the root
            TreeSet<Integer> haloSet = new TreeSet<>();
            int[] rowPtr = new int[nodes + 1];
            int blocks = 0;
            for (int g = 0; g < nodes; g++) {
                boolean row = mine[g] && g != root;
                if (row) {
                    for (int b = cptr[g]; b < cptr[g + 1]; b++) if (!mine[ccol[b]]) haloSet.add(ccol[b]);
                    blocks += cptr[g + 1] - cptr[g];
                }
                rowPtr[g + 1] = blocks;
            }
            int[] haloNodes = haloSet.stream().mapToInt(Integer::intValue).toArray();
            int[] cColumn = new int[blocks], cRow = new int[blocks], cCol = new int[blocks];
            for (int g = 0, q = 0; g < nodes; g++) {
                if (!mine[g] || g == root) continue;
                for (int b = cptr[g]; b < cptr[g + 1]; b++, q++) {
                    int c = ccol[b];
                    cRow[q] = g;
                    cCol[q] = c;
                    cColumn[q] = mine[c] ? rankStart[c] / k : own + Arrays.binarySearch(haloNodes, c);
                }
            }
            // dense leaf rows
            TreeSet<Integer> haloLeafSet = new TreeSet<>();
            for (int b = dptr[lf0]; b < dptr[lf1]; b++) if (dcol[b] < lf0 || dcol[b] >= lf1) haloLeafSet.add(dcol[b]);
            int[] haloLeaves = haloLeafSet.stream().mapToInt(Integer::intValue).toArray();
            int[] colLeafStart = new int[ownLeaves + haloLeaves.length + 1];
            System.arraycopy(leafStart, 0, colLeafStart, 0, ownLeaves + 1);
            for (int h = 0; h < haloLeaves.length; h++) {
                colLeafStart[ownLeaves + h + 1] = colLeafStart[ownLeaves + h] + ls[haloLeaves[h] + 1] - ls[haloLeaves[h]];
            }
            double[] colPoints = Arrays.copyOf(points, colLeafStart[colLeafStart.length - 1] * dim);
            for (int h = 0; h < haloLeaves.length; h++) {
                int q0 = ls[haloLeaves[h]], q1 = ls[haloLeaves[h] + 1];
                System.arraycopy(pts, q0 * dim, colPoints, colLeafStart[ownLeaves + h] * dim, (q1 - q0) * dim);
            }
            int nd = dptr[lf1] - dptr[lf0];
            int[] denseRowPtr = new int[ownLeaves + 1], denseColumn = new int[nd], denseRow = new int[nd];
            long[] denseOffset = new long[nd + 1];
            for (int i = 0; i < ownLeaves; i++) {
                denseRowPtr[i + 1] = dptr[lf0 + i + 1] - dptr[lf0];
                for (int b = dptr[lf0 + i]; b < dptr[lf0 + i + 1]; b++) {
                    int q = b - dptr[lf0], j = dcol[b];
                    denseRow[q] = i;
                    denseColumn[q] = j >= lf0 && j < lf1 ? j - lf0 : ownLeaves + Arrays.binarySearch(haloLeaves, j);
                    long mi = leafStart[i + 1] - leafStart[i], mj = ls[j + 1] - ls[j];
                    denseOffset[q + 1] = denseOffset[q] + mi * mj;
                }
            }
            halos.add(haloNodes);
            built.add(new Object[] {root, p0, points, (1 << depth) - 1 + lf0, leafStart, pointLeaf, localBoxes, rankStart, transferOffset,
                    rowPtr, cColumn, cRow, cCol, haloNodes, denseRowPtr, denseColumn, denseRow, denseOffset, haloLeaves, colLeafStart, colPoints,
                    Arrays.stream(haloLeaves).map(j -> ls[j]).toArray()});
        }
        // what each part sends: its nodes in the other parts' halos
        List<TreeSet<Integer>> send = new ArrayList<>();
        for (int a = 0; a < parts; a++) send.add(new TreeSet<>());
        for (int[] h : halos) for (int g : h) send.get(owner(g, level)).add(g);
        List<SubtreePart> out = new ArrayList<>();
        for (int a = 0; a < parts; a++) {
            Object[] f = built.get(a);
            out.add(new SubtreePart(a, level, depth, (int) f[0], dim, s.options().order(), k, m, kernel, (int) f[1], (double[]) f[2], (int) f[3],
                    (int[]) f[4], (int[]) f[5], boxes, (double[]) f[6], (int[]) f[7], (long[]) f[8], (int[]) f[9], (int[]) f[10], (int[]) f[11],
                    (int[]) f[12], (int[]) f[13], (int[]) f[14], (int[]) f[15], (int[]) f[16], (long[]) f[17], (int[]) f[18], (int[]) f[19],
                    (double[]) f[20], (int[]) f[21], send.get(a).stream().mapToInt(Integer::intValue).toArray()));
        }
        return new SubtreeCut(s, level, out);
    }

    /** The part that owns node {@code g} (on a level {@code >= level}). */
    static int owner(int g, int level) {
        while (31 - Integer.numberOfLeadingZeros(g + 1) > level) g = (g - 1) / 2;
        return g - ((1 << level) - 1);
    }
}
