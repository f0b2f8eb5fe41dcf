package dev.squall.sparse.io;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketHeader.Field;
import dev.squall.sparse.io.MatrixMarketHeader.Format;
import dev.squall.sparse.io.MatrixMarketHeader.Symmetry;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link CsrMatrix} as a Matrix Market file. Values are written in Java's shortest
 * round-tripping decimal form, so {@link MatrixMarketReader} gives back the same matrix exactly.
 *
 * <pre>{@code
 * MatrixMarketWriter.write(a, Path.of("a.mtx"));                       // coordinate real general
 * MatrixMarketWriter.write(a, Path.of("s.mtx"), new MatrixMarketHeader(
 *         Format.COORDINATE, Field.REAL, Symmetry.SYMMETRIC));         // lower triangle only
 * }</pre>
 */
public final class MatrixMarketWriter {
    private MatrixMarketWriter() {
    }

    /** Writes coordinate real general. */
    public static void write(CsrMatrix a, Path path) throws IOException {
        write(a, path, new MatrixMarketHeader(Format.COORDINATE, Field.REAL, Symmetry.GENERAL));
    }

    public static void write(CsrMatrix a, Path path, MatrixMarketHeader header) throws IOException {
        try (OutputStream out = Files.newOutputStream(path)) {
            write(a, out, header);
        }
    }

    /**
     * Writes {@code a} in the given form. Symmetric forms write the lower triangle and require
     * the matrix to be (skew-)symmetric with the same pattern in both triangles; the integer field
     * requires integral values; the pattern field drops values. The array format writes every
     * position, absent entries as 0.
     *
     * @throws IllegalArgumentException naming the first entry that does not fit the form
     */
    public static void write(CsrMatrix a, OutputStream out, MatrixMarketHeader h) throws IOException {
        if (h.format() == Format.ARRAY && h.field() == Field.PATTERN) {
            throw new IllegalArgumentException("an array file cannot have the pattern field");
        }
        if (h.symmetry() != Symmetry.GENERAL) checkSymmetric(a, h.symmetry());
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.US_ASCII), 1 << 16);
        w.write(h.banner());
        w.write('\n');
        boolean lowerOnly = h.symmetry() != Symmetry.GENERAL;
        boolean strict = h.symmetry() == Symmetry.SKEW_SYMMETRIC;
        if (h.format() == Format.COORDINATE) {
            long count = 0;
            for (int i = 0; i < a.rows(); i++) {
                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                    int j = a.colIndex(k);
                    if (!lowerOnly || j < i || (j == i && !strict)) count++;
                }
            }
            w.write(a.rows() + " " + a.cols() + " " + count + "\n");
            StringBuilder sb = new StringBuilder(64);
            for (int i = 0; i < a.rows(); i++) {
                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                    int j = a.colIndex(k);
                    if (lowerOnly && (j > i || (j == i && strict))) continue;
                    sb.setLength(0);
                    sb.append(i + 1).append(' ').append(j + 1);
                    if (h.field() != Field.PATTERN) sb.append(' ').append(format(a.value(k), h.field(), i, j));
                    sb.append('\n');
                    w.append(sb);
                }
            }
        } else {
            double[] d = a.toDense();
            w.write(a.rows() + " " + a.cols() + "\n");
            for (int j = 0; j < a.cols(); j++) {
                int first = !lowerOnly ? 0 : strict ? j + 1 : j;
                for (int i = first; i < a.rows(); i++) {
                    w.write(format(d[i * a.cols() + j], h.field(), i, j));
                    w.write('\n');
                }
            }
        }
        w.flush();
    }

    private static String format(double v, Field field, int i, int j) {
        if (field == Field.INTEGER) {
            if (v != Math.rint(v) || Math.abs(v) > 9.0e15) {
                throw new IllegalArgumentException("entry (" + (i + 1) + ", " + (j + 1) + ") = " + v + " is not an integer");
            }
            return Long.toString((long) v);
        }
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("entry (" + (i + 1) + ", " + (j + 1) + ") = " + v + " is not finite");
        }
        return Double.toString(v);
    }

    private static void checkSymmetric(CsrMatrix a, Symmetry s) {
        if (a.rows() != a.cols()) {
            throw new IllegalArgumentException("a " + a.rows() + " x " + a.cols() + " matrix cannot be written as symmetric");
        }
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int j = a.colIndex(k);
                double v = a.value(k);
                if (s == Symmetry.SKEW_SYMMETRIC && i == j) {
                    throw new IllegalArgumentException("entry (" + (i + 1) + ", " + (j + 1) + ") lies on the diagonal of a skew-symmetric matrix");
                }
                double t = find(a, j, i);
                boolean present = !Double.isNaN(t);
                double want = s == Symmetry.SYMMETRIC ? v : -v;
                if (!present || Double.compare(t, want) != 0 && !(t == 0 && want == 0)) {
                    throw new IllegalArgumentException("matrix is not " + s.name().toLowerCase().replace('_', '-') + ": entry ("
                            + (i + 1) + ", " + (j + 1) + ") = " + v + " but (" + (j + 1) + ", " + (i + 1) + ") = "
                            + (present ? t : "absent"));
                }
            }
        }
    }

    /** Value at (i, j), NaN if absent (values are finite, so NaN is free as a marker). */
    private static double find(CsrMatrix a, int i, int j) {
        int lo = a.rowStart(i);
        int hi = a.rowStart(i + 1) - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = a.colIndex(mid);
            if (c == j) return a.value(mid);
            if (c < j) lo = mid + 1;
            else hi = mid - 1;
        }
        return Double.NaN;
    }
}
