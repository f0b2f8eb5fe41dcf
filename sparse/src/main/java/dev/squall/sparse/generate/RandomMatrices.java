package dev.squall.sparse.generate;

import dev.squall.sparse.format.CsrMatrix;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Random synthetic matrices with fixed seeds, the one generator of every Squall module: Erdős–Rényi
 * (each entry present with a given probability), R-MAT power-law graphs, banded, block-structured
 * and skewed-row matrices. Values are uniform in [0.5, 1.5) (or ±, or [0, 1), see each method).
 *
 * <pre>{@code
 * CsrMatrix g = RandomMatrices.rmat(20, 16, 1);          // 2^20 vertices, ~16 edges each
 * CsrMatrix s = RandomMatrices.skewed(1_000_000, 0.001, 5000, 8, 1);
 * CsrMatrix e = RandomMatrices.erdosRenyi(40, 40, 0.1, 7); // ~160 entries, values in [0, 1)
 * }</pre>
 */
public final class RandomMatrices {
    private RandomMatrices() {
    }

    /**
     * A {@code rows} × {@code cols} matrix in which every entry is present independently with
     * probability {@code density}, with a value uniform in [0, 1) (the test matrices of Elbek and
     * Kaya's permanent study). The gaps between present entries (row by row) are drawn from the
     * geometric distribution, so the cost is proportional to the entries, not to rows × cols.
     *
     * @throws IllegalArgumentException if a dimension is negative, the density is outside (0, 1],
     *                                  or the expected entries exceed what a CSR matrix holds
     */
    public static CsrMatrix erdosRenyi(int rows, int cols, double density, long seed) {
        if (rows < 0 || cols < 0) throw new IllegalArgumentException("Erdős–Rényi: dimensions " + rows + " x " + cols + " must be >= 0");
        if (!(density > 0 && density <= 1)) throw new IllegalArgumentException("Erdős–Rényi: density must be in (0, 1], got " + density);
        long positions = (long) rows * cols;
        double expected = density * positions;
        SplittableRandom rnd = new SplittableRandom(seed);
        CsrBuilder b = new CsrBuilder(rows, cols, (long) expected);
        double logMiss = Math.log1p(-density); // -infinity at density 1: every gap is 0
        long next = gap(rnd, logMiss);
        for (int i = 0; i < rows; i++) {
            long rowEnd = (long) (i + 1) * cols;
            while (next < rowEnd) {
                b.add((int) (next - (long) i * cols), rnd.nextDouble());
                next += 1 + gap(rnd, logMiss);
            }
            b.endRow();
        }
        return b.build();
    }

    /** The number of absent entries before the next present one: geometric, P(gap = k) = (1 - p)^k p. */
    private static long gap(SplittableRandom rnd, double logMiss) {
        double g = Math.floor(Math.log1p(-rnd.nextDouble()) / logMiss);
        return g < Long.MAX_VALUE / 2 ? (long) g : Long.MAX_VALUE / 2;
    }

    /**
     * An R-MAT graph (Chakrabarti, Zhan, Faloutsos, SDM 2004) with Graph500's probabilities
     * a = 0.57, b = c = 0.19, d = 0.05: {@code 2^scale} vertices and {@code edgeFactor · 2^scale}
     * generated edges; repeated edges are summed, so nnz is somewhat lower.
     */
    public static CsrMatrix rmat(int scale, int edgeFactor, long seed) {
        if (scale < 1 || scale > 30) throw new IllegalArgumentException("R-MAT scale " + scale + " must be in 1..30");
        if (edgeFactor < 1) throw new IllegalArgumentException("R-MAT edge factor " + edgeFactor + " must be positive");
        int n = 1 << scale;
        long m = (long) edgeFactor * n;
        CsrBuilder.checkFits(n, n, m, 12, 52); // triplets, then their assembly into CSR
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] ri = new int[(int) m];
        int[] ci = new int[(int) m];
        double[] v = new double[(int) m];
        for (int e = 0; e < m; e++) {
            int r = 0, c = 0;
            for (int bit = scale - 1; bit >= 0; bit--) {
                double p = rnd.nextDouble();
                if (p < 0.57) continue;                      // a: top-left
                if (p < 0.76) c |= 1 << bit;                 // b: top-right
                else if (p < 0.95) r |= 1 << bit;            // c: bottom-left
                else { r |= 1 << bit; c |= 1 << bit; }       // d: bottom-right
            }
            ri[e] = r;
            ci[e] = c;
            v[e] = 0.5 + rnd.nextDouble();
        }
        return CsrMatrix.fromCoo(n, n, ri, ci, v);
    }

    /** An n × n matrix with every entry within {@code halfBandwidth} of the diagonal, values ±[0.5, 1.5). */
    public static CsrMatrix banded(int n, int halfBandwidth, long seed) {
        if (n < 0 || halfBandwidth < 0) throw new IllegalArgumentException("banded: n " + n + " and bandwidth " + halfBandwidth + " must be >= 0");
        SplittableRandom rnd = new SplittableRandom(seed);
        CsrBuilder b = new CsrBuilder(n, n, (long) n * (2L * halfBandwidth + 1));
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - halfBandwidth); j <= Math.min(n - 1, i + halfBandwidth); j++) {
                b.add(j, (rnd.nextBoolean() ? 1 : -1) * (0.5 + rnd.nextDouble()));
            }
            b.endRow();
        }
        return b.build();
    }

    /**
     * A block-structured matrix: {@code blockRows} × {@code blockRows} blocks of size
     * {@code blockSize}, each block row holding the diagonal block and {@code blocksPerRow - 1}
     * other random blocks, every block dense (as in finite elements with several unknowns per node).
     */
    public static CsrMatrix blocks(int blockRows, int blockSize, int blocksPerRow, long seed) {
        if (blockRows < 1 || blockSize < 1 || blocksPerRow < 1) {
            throw new IllegalArgumentException("blocks: block rows " + blockRows + ", block size " + blockSize
                    + " and blocks per row " + blocksPerRow + " must be positive");
        }
        long n = (long) blockRows * blockSize;
        if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("blocks: " + n + " rows is too large");
        int per = Math.min(blocksPerRow, blockRows);
        SplittableRandom rnd = new SplittableRandom(seed);
        CsrBuilder b = new CsrBuilder((int) n, (int) n, n * per * blockSize);
        int[] bc = new int[per];
        for (int br = 0; br < blockRows; br++) {
            bc[0] = br;
            int have = 1;
            while (have < per) {
                int c = rnd.nextInt(blockRows);
                boolean dup = false;
                for (int q = 0; q < have; q++) dup |= bc[q] == c;
                if (!dup) bc[have++] = c;
            }
            Arrays.sort(bc);
            for (int r = 0; r < blockSize; r++) {
                for (int c : bc) {
                    for (int q = 0; q < blockSize; q++) b.add(c * blockSize + q, 0.5 + rnd.nextDouble());
                }
                b.endRow();
            }
        }
        return b.build();
    }

    /**
     * An n × n matrix where a fraction {@code longFraction} of the rows (spread evenly) hold
     * {@code longLength} entries and the others {@code shortLength}, at random distinct columns:
     * the skewed-row case that defeats one-thread-per-row kernels.
     */
    public static CsrMatrix skewed(int n, double longFraction, int longLength, int shortLength, long seed) {
        if (n < 1 || longFraction < 0 || longFraction > 1 || longLength < 0 || shortLength < 0) {
            throw new IllegalArgumentException("skewed: n " + n + ", fraction " + longFraction + ", lengths "
                    + longLength + "/" + shortLength + " out of range");
        }
        int every = longFraction == 0 ? Integer.MAX_VALUE : (int) Math.max(1, Math.round(1 / longFraction));
        SplittableRandom rnd = new SplittableRandom(seed);
        long expect = (long) n * shortLength + (long) (n / (double) every) * longLength;
        CsrBuilder b = new CsrBuilder(n, n, expect + 16);
        int[] cols = new int[Math.min(n, Math.max(longLength, shortLength))];
        for (int i = 0; i < n; i++) {
            int len = Math.min(n, i % every == every / 2 ? longLength : shortLength);
            int got = randomDistinct(rnd, n, len, cols);
            for (int q = 0; q < got; q++) b.add(cols[q], 0.5 + rnd.nextDouble());
            b.endRow();
        }
        return b.build();
    }

    /** Fills out[0..len) with distinct sorted columns in [0, n). */
    private static int randomDistinct(SplittableRandom rnd, int n, int len, int[] out) {
        if (len * 2L > n) { // dense-ish: choose by selection sampling (Knuth's algorithm S)
            int got = 0;
            for (int c = 0; c < n && got < len; c++) {
                if (rnd.nextInt(n - c) < len - got) out[got++] = c;
            }
            return got;
        }
        int got = 0;
        while (got < len) {
            // draw the missing columns, then sort and drop repeats; repeat until none are missing
            while (got < len) out[got++] = rnd.nextInt(n);
            Arrays.sort(out, 0, got);
            int u = 0;
            for (int q = 0; q < got; q++) if (u == 0 || out[u - 1] != out[q]) out[u++] = out[q];
            got = u;
        }
        Arrays.sort(out, 0, got);
        return got;
    }
}
