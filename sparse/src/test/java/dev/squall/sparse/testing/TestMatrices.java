package dev.squall.sparse.testing;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.RandomMatrices;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.io.MatrixMarketReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** The matrices every format and executor is checked on, by name. Sizes avoid multiples of work-group sizes. */
public final class TestMatrices {
    private TestMatrices() {
    }

    public static Map<String, CsrMatrix> all() {
        Map<String, CsrMatrix> m = new LinkedHashMap<>();
        try {
            for (String f : TestData.MATRICES) m.put(f, MatrixMarketReader.read(TestData.file(f)));
            // duplicates in the file are summed; the explicit zero at (3, 2) is kept
            m.put("duplicates+zeros.mtx", MatrixMarketReader.read(new ByteArrayInputStream("""
                    %%MatrixMarket matrix coordinate real general
                    4 5 7
                    1 1 1.5
                    3 2 0
                    1 1 -0.5
                    4 5 2
                    2 3 7
                    4 5 3
                    1 4 -2
                    """.getBytes(StandardCharsets.US_ASCII)), "duplicates+zeros.mtx"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        m.put("empty rows", randomSparse(new Random(3), 517, 389, 0.02, 3));
        m.put("empty matrix", CsrMatrix.fromCoo(37, 23, new int[0], new int[0], new double[0]));
        m.put("one dense row", oneDenseRow(new Random(4), 700, 350));
        m.put("1xN", randomSparse(new Random(5), 1, 1333, 0.5, 0));
        m.put("Nx1", randomSparse(new Random(6), 1333, 1, 0.5, 0));
        m.put("27pt 9x7x5", Stencils.of(27, 9, 7, 5));
        m.put("rmat 10", RandomMatrices.rmat(10, 6, 9));
        m.put("skewed", RandomMatrices.skewed(2003, 0.002, 900, 5, 10));
        m.put("long rows", longRows(new Random(8), 1501, 4999, new int[] {0, 700, 1500}, 4500));
        return m;
    }

    /** Random matrix; every {@code emptyEvery}-th row is empty (0: none). */
    public static CsrMatrix randomSparse(Random rnd, int rows, int cols, double density, int emptyEvery) {
        int cap = (int) (rows * (long) cols * density * 1.5) + 16;
        int[] ri = new int[cap];
        int[] ci = new int[cap];
        double[] v = new double[cap];
        int t = 0;
        for (int i = 0; i < rows; i++) {
            if (emptyEvery > 0 && i % emptyEvery == 1) continue;
            for (int j = 0; j < cols && t < cap; j++) {
                if (rnd.nextDouble() < density) {
                    ri[t] = i;
                    ci[t] = j;
                    v[t++] = rnd.nextGaussian();
                }
            }
        }
        return CsrMatrix.fromCoo(rows, cols, java.util.Arrays.copyOf(ri, t), java.util.Arrays.copyOf(ci, t), java.util.Arrays.copyOf(v, t));
    }

    /** Rows {@code longs} hold {@code len} entries each (split into several segments by csr-binned); the others 0..6. */
    static CsrMatrix longRows(Random rnd, int rows, int cols, int[] longs, int len) {
        java.util.List<int[]> e = new java.util.ArrayList<>();
        java.util.Set<Integer> big = new java.util.HashSet<>();
        for (int r : longs) big.add(r);
        for (int i = 0; i < rows; i++) {
            if (big.contains(i)) {
                for (int j = 0; j < len; j++) e.add(new int[] {i, (j * 7 + i) % cols});
            } else {
                int n = rnd.nextInt(7);
                for (int j = 0; j < n; j++) e.add(new int[] {i, rnd.nextInt(cols)});
            }
        }
        int[] ri = new int[e.size()];
        int[] ci = new int[e.size()];
        double[] v = new double[e.size()];
        for (int t = 0; t < ri.length; t++) {
            ri[t] = e.get(t)[0];
            ci[t] = e.get(t)[1];
            v[t] = rnd.nextGaussian();
        }
        return CsrMatrix.fromCoo(rows, cols, ri, ci, v);
    }

    static CsrMatrix oneDenseRow(Random rnd, int n, int denseRow) {
        int[] ri = new int[n + 3 * n];
        int[] ci = new int[ri.length];
        double[] v = new double[ri.length];
        int t = 0;
        for (int j = 0; j < n; j++) {
            ri[t] = denseRow;
            ci[t] = j;
            v[t++] = rnd.nextGaussian();
        }
        for (int i = 0; i < n; i++) {
            if (i == denseRow) continue;
            for (int q = 0; q < 3; q++) {
                ri[t] = i;
                ci[t] = (i + q * 37) % n;
                v[t++] = rnd.nextGaussian();
            }
        }
        return CsrMatrix.fromCoo(n, n, java.util.Arrays.copyOf(ri, t), java.util.Arrays.copyOf(ci, t), java.util.Arrays.copyOf(v, t));
    }
}
