package dev.squall.sparse.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketHeader.Field;
import dev.squall.sparse.io.MatrixMarketHeader.Format;
import dev.squall.sparse.io.MatrixMarketHeader.Symmetry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixMarketWriterTest {

    static CsrMatrix roundTrip(CsrMatrix a, MatrixMarketHeader h) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MatrixMarketWriter.write(a, out, h);
        return MatrixMarketReader.read(new ByteArrayInputStream(out.toByteArray()), "rt");
    }

    /** Random matrix with awkward values (tiny, huge, negative zero excluded), explicit zeros and empty rows. */
    static CsrMatrix random(Random rnd, int rows, int cols, boolean symmetric, boolean skew, boolean integral) {
        int m = rows * cols / 3 + 1;
        int[] ri = new int[2 * m];
        int[] ci = new int[2 * m];
        double[] v = new double[2 * m];
        int t = 0;
        boolean[] seen = new boolean[rows * cols];
        for (int e = 0; e < m; e++) {
            int i = rnd.nextInt(rows), j = rnd.nextInt(cols);
            if (symmetric && j > i) { int x = i; i = j; j = x; }
            if (skew && i == j || seen[i * cols + j] || i % 4 == 3) continue;
            seen[i * cols + j] = true;
            double val = integral ? rnd.nextInt(2001) - 1000 : switch (rnd.nextInt(5)) {
                case 0 -> 0.0;
                case 1 -> rnd.nextGaussian() * 1e-300;
                case 2 -> rnd.nextGaussian() * 1e300;
                default -> rnd.nextGaussian();
            };
            ri[t] = i; ci[t] = j; v[t++] = val;
            if (symmetric && i != j) { ri[t] = j; ci[t] = i; v[t++] = skew ? -val : val; }
        }
        return CsrMatrix.fromCoo(rows, cols, java.util.Arrays.copyOf(ri, t), java.util.Arrays.copyOf(ci, t), java.util.Arrays.copyOf(v, t));
    }

    @Test
    void everyFormRoundTripsExactly() throws IOException {
        Random rnd = new Random(5);
        for (Format f : Format.values()) {
            for (Symmetry s : Symmetry.values()) {
                for (Field field : new Field[] {Field.REAL, Field.INTEGER}) {
                    int n = 1 + rnd.nextInt(12);
                    CsrMatrix a = random(rnd, n, s == Symmetry.GENERAL ? 1 + rnd.nextInt(12) : n,
                            s != Symmetry.GENERAL, s == Symmetry.SKEW_SYMMETRIC, field == Field.INTEGER);
                    CsrMatrix b = roundTrip(a, new MatrixMarketHeader(f, field, s));
                    if (f == Format.COORDINATE) {
                        assertTrue(a.sameAs(b), f + " " + field + " " + s);
                    } else {
                        // the array form stores every position: same values, absent entries become zeros
                        org.junit.jupiter.api.Assertions.assertArrayEquals(a.toDense(), b.toDense(), 0.0, f + " " + field + " " + s);
                    }
                }
            }
        }
    }

    @Test
    void patternDropsValues(@TempDir Path dir) throws IOException {
        CsrMatrix a = CsrMatrix.fromCoo(2, 2, new int[] {0, 1}, new int[] {1, 0}, new double[] {3, 4});
        Path p = dir.resolve("p.mtx");
        MatrixMarketWriter.write(a, p, new MatrixMarketHeader(Format.COORDINATE, Field.PATTERN, Symmetry.GENERAL));
        assertEquals("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n", Files.readString(p));
    }

    @Test
    void rejectsMatricesThatDoNotFitTheForm() {
        CsrMatrix a = CsrMatrix.fromCoo(2, 2, new int[] {0, 1}, new int[] {1, 0}, new double[] {3, 4});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> roundTrip(a,
                new MatrixMarketHeader(Format.COORDINATE, Field.REAL, Symmetry.SYMMETRIC)));
        assertTrue(e.getMessage().contains("(1, 2) = 3.0 but (2, 1) = 4.0"), e.getMessage());
        CsrMatrix frac = CsrMatrix.fromCoo(1, 1, new int[] {0}, new int[] {0}, new double[] {0.5});
        assertThrows(IllegalArgumentException.class, () -> roundTrip(frac,
                new MatrixMarketHeader(Format.COORDINATE, Field.INTEGER, Symmetry.GENERAL)));
    }
}
