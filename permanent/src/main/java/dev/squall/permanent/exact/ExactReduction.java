package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.BlockTriangularForm;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The preprocessing of {@link dev.squall.permanent.preprocess.Reduction} in exact integer
 * arithmetic: block-triangular split, expansion of rows and columns with one or two nonzeros
 * (the two-nonzero case merges two columns into {@code a[i][k] A[:,j] + a[i][j] A[:,k]}, which
 * stays an integer column), repeated until nothing changes. Then
 * {@code perm(A) = factor * prod perm(blocks)} with no rounding anywhere.
 *
 * <pre>{@code
 * ExactReduction r = ExactReduction.of(IntegerScaling.ofBinary(a).rows());
 * }</pre>
 *
 * @param factor        product of the eliminated entries and 1x1 blocks (0 when singular)
 * @param blocks        irreducible integer blocks of order >= 2, row-major
 * @param btfBlockSizes sizes of the diagonal blocks of the first split
 * @param eliminated    rows/columns removed by expansion
 */
public record ExactReduction(BigInteger factor, List<BigInteger[][]> blocks, List<Integer> btfBlockSizes, int eliminated) {
    public boolean singular() {
        return factor.signum() == 0;
    }

    /** No preprocessing: the matrix is the only block. */
    public static ExactReduction none(BigInteger[][] a) {
        return new ExactReduction(BigInteger.ONE, List.<BigInteger[][]>of(a), List.of(a.length), 0);
    }

    public static ExactReduction of(BigInteger[][] a) {
        List<BigInteger[][]> out = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        int[] eliminated = {0};
        BigInteger f = reduce(a, out, sizes, eliminated, true);
        if (f.signum() == 0) return new ExactReduction(BigInteger.ZERO, List.of(), List.copyOf(sizes), eliminated[0]);
        return new ExactReduction(f, List.copyOf(out), List.copyOf(sizes), eliminated[0]);
    }

    private static BigInteger reduce(BigInteger[][] a, List<BigInteger[][]> out, List<Integer> sizes, int[] eliminated, boolean top) {
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(pattern(a));
        if (blocks == null) return BigInteger.ZERO;
        if (top) for (BlockTriangularForm.Block b : blocks) sizes.add(b.size());
        BigInteger f = BigInteger.ONE;
        for (BlockTriangularForm.Block b : blocks) {
            int k = b.size();
            BigInteger[][] m = new BigInteger[k][k];
            for (int i = 0; i < k; i++) for (int j = 0; j < k; j++) m[i][j] = a[b.rows()[i]][b.cols()[j]];
            Elimination e = eliminate(m);
            eliminated[0] += e.count;
            f = f.multiply(e.factor);
            if (f.signum() == 0) return BigInteger.ZERO;
            if (e.rest.length == 0) continue;
            if (e.count > 0) f = f.multiply(reduce(e.rest, out, sizes, eliminated, false));
            else out.add(e.rest);
            if (f.signum() == 0) return BigInteger.ZERO;
        }
        return f;
    }

    private record Elimination(BigInteger factor, BigInteger[][] rest, int count) {
    }

    /** Degree-1 and degree-2 expansion of rows, then of columns (as rows of the transpose), until none qualifies. */
    private static Elimination eliminate(BigInteger[][] m) {
        BigInteger factor = BigInteger.ONE;
        int count = 0;
        int n = m.length;
        while (n > 1) {
            boolean changed = false;
            for (int pass = 0; pass < 2 && !changed; pass++) {
                for (int i = 0; i < n && !changed; i++) {
                    int nz = 0, j1 = -1, j2 = -1;
                    for (int j = 0; j < n && nz <= 2; j++) {
                        if (m[i][j].signum() != 0) {
                            if (nz == 0) j1 = j; else j2 = j;
                            nz++;
                        }
                    }
                    if (nz == 0) return new Elimination(BigInteger.ZERO, new BigInteger[0][0], count);
                    if (nz > 2) continue;
                    if (nz == 1) {
                        factor = factor.multiply(m[i][j1]);
                        m = drop(m, i, j1, -1, null);
                    } else {
                        BigInteger[] merged = new BigInteger[n];
                        for (int r = 0; r < n; r++) merged[r] = m[i][j2].multiply(m[r][j1]).add(m[i][j1].multiply(m[r][j2]));
                        m = drop(m, i, j1, j2, merged);
                    }
                    n--;
                    count++;
                    changed = true;
                }
                if (!changed) m = transpose(m);
            }
            if (!changed) break;
        }
        if (n == 1) {
            factor = factor.multiply(m[0][0]);
            count++;
            m = new BigInteger[0][0];
        }
        return new Elimination(factor, m, count);
    }

    /** {@code m} without row {@code i} and columns {@code j1}, {@code j2} ({@code j2 >= 0}: {@code merged} appended as the last column). */
    static BigInteger[][] drop(BigInteger[][] m, int i, int j1, int j2, BigInteger[] merged) {
        int n = m.length;
        BigInteger[][] out = new BigInteger[n - 1][n - 1];
        for (int r = 0, rr = 0; r < n; r++) {
            if (r == i) continue;
            int cc = 0;
            for (int c = 0; c < n; c++) if (c != j1 && c != j2) out[rr][cc++] = m[r][c];
            if (j2 >= 0) out[rr][cc] = merged[r];
            rr++;
        }
        return out;
    }

    static BigInteger[][] transpose(BigInteger[][] m) {
        int n = m.length;
        BigInteger[][] t = new BigInteger[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t[j][i] = m[i][j];
        return t;
    }

    /** The 0/1 pattern, for the structural (matching and component) computations. */
    public static SquareMatrix pattern(BigInteger[][] a) {
        int n = a.length;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = a[i][j].signum() != 0 ? 1 : 0;
        return SquareMatrix.of(n, v);
    }

    /** Upper bound on |perm(a)|: the smaller of the products of the rows' and the columns' 1-norms. */
    public static BigInteger normBound(BigInteger[][] a) {
        int n = a.length;
        BigInteger byRows = BigInteger.ONE, byCols = BigInteger.ONE;
        for (int i = 0; i < n; i++) {
            BigInteger r = BigInteger.ZERO, c = BigInteger.ZERO;
            for (int j = 0; j < n; j++) {
                r = r.add(a[i][j].abs());
                c = c.add(a[j][i].abs());
            }
            byRows = byRows.multiply(r);
            byCols = byCols.multiply(c);
        }
        return byRows.min(byCols);
    }
}
