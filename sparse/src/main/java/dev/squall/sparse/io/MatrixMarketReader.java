package dev.squall.sparse.io;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketHeader.Field;
import dev.squall.sparse.io.MatrixMarketHeader.Format;
import dev.squall.sparse.io.MatrixMarketHeader.Symmetry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads Matrix Market files (coordinate and array; real, integer, pattern; general, symmetric,
 * skew-symmetric) into a {@link CsrMatrix}. The file is streamed once through a byte buffer and
 * parsed without creating a string per token, so files of 100M entries read at disk speed.
 *
 * <p>Duplicate coordinate entries are summed and explicit zeros are kept. Symmetric and
 * skew-symmetric files must store the lower triangle; the upper one is mirrored from it.
 * Every error names the file and line: truncated files, wrong counts, indices out of range,
 * text that is not a finite number, complex or hermitian matrices.
 *
 * <pre>{@code
 * CsrMatrix a = MatrixMarketReader.read(Path.of("1138_bus.mtx"));
 * }</pre>
 */
public final class MatrixMarketReader {
    private MatrixMarketReader() {
    }

    /** Reads the file at {@code path}. */
    public static CsrMatrix read(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return read(in, path.toString());
        }
    }

    /** Reads a Matrix Market stream; {@code name} is used in error messages. */
    public static CsrMatrix read(InputStream in, String name) throws IOException {
        LineSource src = new LineSource(in, name);
        MatrixMarketHeader h = readHeader(src);
        // skip comments and blank lines up to the size line
        do {
            if (!src.next()) throw src.error("file ends before the size line");
        } while (src.isBlank() || src.startsWith('%'));
        long rows = src.nextLong("row count");
        long cols = src.nextLong("column count");
        if (rows < 0 || cols < 0 || rows > Integer.MAX_VALUE - 1 || cols > Integer.MAX_VALUE - 1) {
            throw src.error("dimensions " + rows + " x " + cols + " are out of range (0 .. 2^31-2)");
        }
        return h.format() == Format.COORDINATE
                ? readCoordinate(src, h, (int) rows, (int) cols)
                : readArray(src, h, (int) rows, (int) cols);
    }

    private static MatrixMarketHeader readHeader(LineSource src) throws IOException {
        if (!src.next()) throw src.error("empty file: expected a %%MatrixMarket banner");
        String[] t = src.text().strip().toLowerCase(Locale.ROOT).split("\\s+");
        if (t.length != 5 || !t[0].equals("%%matrixmarket") || !t[1].equals("matrix")) {
            throw src.error("expected '%%MatrixMarket matrix FORMAT FIELD SYMMETRY', found '" + src.text().strip() + "'");
        }
        Format format = switch (t[2]) {
            case "coordinate" -> Format.COORDINATE;
            case "array" -> Format.ARRAY;
            default -> throw src.error("unknown format '" + t[2] + "' (expected coordinate or array)");
        };
        Field field = switch (t[3]) {
            case "real", "double" -> Field.REAL;
            case "integer" -> Field.INTEGER;
            case "pattern" -> Field.PATTERN;
            case "complex" -> throw src.error("complex matrices are not supported (only real, integer and pattern)");
            default -> throw src.error("unknown field '" + t[3] + "' (expected real, integer or pattern)");
        };
        Symmetry sym = switch (t[4]) {
            case "general" -> Symmetry.GENERAL;
            case "symmetric" -> Symmetry.SYMMETRIC;
            case "skew-symmetric" -> Symmetry.SKEW_SYMMETRIC;
            case "hermitian" -> throw src.error("hermitian matrices are not supported (they are complex)");
            default -> throw src.error("unknown symmetry '" + t[4] + "' (expected general, symmetric or skew-symmetric)");
        };
        if (format == Format.ARRAY && field == Field.PATTERN) throw src.error("an array file cannot have the pattern field");
        if (sym != Symmetry.GENERAL && format == Format.COORDINATE && field == Field.PATTERN && sym == Symmetry.SKEW_SYMMETRIC) {
            throw src.error("a pattern matrix cannot be skew-symmetric");
        }
        return new MatrixMarketHeader(format, field, sym);
    }

    private static CsrMatrix readCoordinate(LineSource src, MatrixMarketHeader h, int rows, int cols) throws IOException {
        long declared = src.nextLong("entry count");
        src.expectEnd("the size line has three numbers: rows, columns, entries");
        boolean mirrored = h.symmetry() != Symmetry.GENERAL;
        if (declared < 0 || declared > (mirrored ? (Integer.MAX_VALUE - 8) / 2 : Integer.MAX_VALUE - 8)) {
            throw src.error("entry count " + declared + " is out of range");
        }
        if (mirrored && rows != cols) throw src.error("a " + h.symmetry().name().toLowerCase(Locale.ROOT)
                + " matrix must be square, this one is " + rows + " x " + cols);
        int n = (int) declared;
        int cap = mirrored ? 2 * n : n;
        int[] ri = new int[cap];
        int[] ci = new int[cap];
        double[] vv = new double[cap];
        int m = 0;
        for (int e = 0; e < n; e++) {
            do {
                if (!src.next()) throw src.error("file ends after " + e + " of the " + n + " declared entries");
            } while (src.isBlank());
            long i = src.nextLong("row index");
            long j = src.nextLong("column index");
            if (i < 1 || i > rows) throw src.error("row index " + i + " is outside 1.." + rows);
            if (j < 1 || j > cols) throw src.error("column index " + j + " is outside 1.." + cols);
            double v = h.field() == Field.PATTERN ? 1.0 : src.nextValue(h.field());
            src.expectEnd(h.field() == Field.PATTERN ? "a pattern entry has two numbers" : "an entry has three numbers");
            if (mirrored && j > i) {
                throw src.error("entry (" + i + ", " + j + ") lies above the diagonal; a "
                        + h.symmetry().name().toLowerCase(Locale.ROOT).replace('_', '-') + " file stores the lower triangle");
            }
            if (h.symmetry() == Symmetry.SKEW_SYMMETRIC && i == j) {
                throw src.error("skew-symmetric matrix has a diagonal entry (" + i + ", " + j + ")");
            }
            ri[m] = (int) i - 1;
            ci[m] = (int) j - 1;
            vv[m++] = v;
            if (mirrored && i != j) {
                ri[m] = (int) j - 1;
                ci[m] = (int) i - 1;
                vv[m++] = h.symmetry() == Symmetry.SKEW_SYMMETRIC ? -v : v;
            }
        }
        src.expectNoMoreData("the file declares " + n + " entries but has more");
        if (m < cap) {
            ri = java.util.Arrays.copyOf(ri, m);
            ci = java.util.Arrays.copyOf(ci, m);
            vv = java.util.Arrays.copyOf(vv, m);
        }
        return CsrMatrix.fromCoo(rows, cols, ri, ci, vv);
    }

    private static CsrMatrix readArray(LineSource src, MatrixMarketHeader h, int rows, int cols) throws IOException {
        src.expectEnd("the size line of an array file has two numbers: rows, columns");
        Symmetry sym = h.symmetry();
        if (sym != Symmetry.GENERAL && rows != cols) {
            throw src.error("a symmetric or skew-symmetric matrix must be square, this one is " + rows + " x " + cols);
        }
        long total = (long) rows * cols;
        if (total > Integer.MAX_VALUE - 8) throw src.error("array of " + total + " entries is too large");
        double[] dense = new double[(int) total]; // row-major
        boolean[] stored = new boolean[(int) total];
        long expected = switch (sym) {
            case GENERAL -> total;
            case SYMMETRIC -> (long) rows * (rows + 1) / 2;
            case SKEW_SYMMETRIC -> (long) rows * (rows - 1) / 2;
        };
        long e = 0;
        for (int j = 0; j < cols; j++) {
            int first = switch (sym) {
                case GENERAL -> 0;
                case SYMMETRIC -> j;
                case SKEW_SYMMETRIC -> j + 1;
            };
            for (int i = first; i < rows; i++) {
                do {
                    if (!src.next()) throw src.error("file ends after " + e + " of the " + expected + " array values");
                } while (src.isBlank());
                double v = src.nextValue(h.field());
                src.expectEnd("an array line has one value");
                e++;
                dense[i * cols + j] = v;
                stored[i * cols + j] = true;
                if (sym != Symmetry.GENERAL && i != j) {
                    dense[j * cols + i] = sym == Symmetry.SKEW_SYMMETRIC ? -v : v;
                    stored[j * cols + i] = true;
                }
            }
        }
        src.expectNoMoreData("the file declares " + expected + " array values but has more");
        // every stored value becomes an entry (zeros included) so writing and reading round-trips
        int m = 0;
        for (boolean b : stored) if (b) m++;
        int[] ri = new int[m];
        int[] ci = new int[m];
        double[] vv = new double[m];
        int t = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                if (stored[i * cols + j]) {
                    ri[t] = i;
                    ci[t] = j;
                    vv[t++] = dense[i * cols + j];
                }
            }
        }
        return CsrMatrix.fromCoo(rows, cols, ri, ci, vv);
    }
}
