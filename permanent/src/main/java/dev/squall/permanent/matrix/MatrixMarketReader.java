package dev.squall.permanent.matrix;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A minimal Matrix Market reader for permanents: {@code coordinate} format, {@code real},
 * {@code integer} or {@code pattern} fields (pattern entries read as 1), {@code general} or
 * {@code symmetric} symmetry. Errors name the file, the line and the offending text.
 *
 * <pre>{@code
 * SquareMatrix a = MatrixMarketReader.read(Path.of("bcsstk01.mtx"));
 * }</pre>
 */
public final class MatrixMarketReader {
    /** Orders above this are refused before allocating a dense n x n array. */
    public static final int MAX_ORDER = 4096;

    private MatrixMarketReader() {
    }

    public static SquareMatrix read(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file)) {
            return read(r, file.toString());
        }
    }

    /** @param name used in error messages */
    public static SquareMatrix read(BufferedReader r, String name) throws IOException {
        String line = r.readLine();
        int lineNo = 1;
        if (line == null) throw error(name, 1, "empty file; expected a '%%MatrixMarket matrix coordinate ...' header");
        String[] h = line.trim().toLowerCase(java.util.Locale.ROOT).split("\\s+");
        if (h.length < 5 || !h[0].equals("%%matrixmarket") || !h[1].equals("matrix")) {
            throw error(name, lineNo, "bad header '" + line + "'; expected '%%MatrixMarket matrix coordinate real general'");
        }
        if (!h[2].equals("coordinate")) throw error(name, lineNo, "format '" + h[2] + "' is not supported; only 'coordinate'");
        boolean pattern = h[3].equals("pattern");
        if (!pattern && !h[3].equals("real") && !h[3].equals("integer")) {
            throw error(name, lineNo, "field '" + h[3] + "' is not supported; use real, integer or pattern");
        }
        boolean symmetric = h[4].equals("symmetric");
        if (!symmetric && !h[4].equals("general")) throw error(name, lineNo, "symmetry '" + h[4] + "' is not supported; use general or symmetric");
        do {
            line = r.readLine();
            lineNo++;
        } while (line != null && (line.isBlank() || line.startsWith("%")));
        if (line == null) throw error(name, lineNo, "missing the size line 'rows cols entries'");
        String[] sz = line.trim().split("\\s+");
        if (sz.length != 3) throw error(name, lineNo, "size line '" + line.trim() + "' must have three integers: rows cols entries");
        int rows = parseInt(sz[0], name, lineNo), cols = parseInt(sz[1], name, lineNo), nnz = parseInt(sz[2], name, lineNo);
        if (rows != cols) throw error(name, lineNo, "the matrix is " + rows + " x " + cols + "; a permanent needs a square matrix");
        if (rows == 0) throw error(name, lineNo, "the matrix is empty (0 x 0)");
        if (rows < 0 || nnz < 0) throw error(name, lineNo, "negative size '" + line.trim() + "'");
        if (rows > MAX_ORDER) throw error(name, lineNo, "order " + rows + " is larger than " + MAX_ORDER);
        int n = rows;
        double[] v = new double[n * n];
        int read = 0;
        while (read < nnz) {
            line = r.readLine();
            lineNo++;
            if (line == null) throw error(name, lineNo, "file ends after " + read + " of " + nnz + " entries");
            if (line.isBlank() || line.startsWith("%")) continue;
            String[] t = line.trim().split("\\s+");
            if (t.length != (pattern ? 2 : 3)) throw error(name, lineNo, "entry '" + line.trim() + "' must be 'row col" + (pattern ? "'" : " value'"));
            int i = parseInt(t[0], name, lineNo), j = parseInt(t[1], name, lineNo);
            if (i < 1 || i > n || j < 1 || j > n) throw error(name, lineNo, "index (" + i + ", " + j + ") outside 1.." + n);
            double val = 1;
            if (!pattern) {
                try {
                    val = Double.parseDouble(t[2]);
                } catch (NumberFormatException e) {
                    throw error(name, lineNo, "value '" + t[2] + "' is not a number");
                }
                if (!Double.isFinite(val)) throw error(name, lineNo, "value '" + t[2] + "' is not finite");
            }
            v[(i - 1) * n + (j - 1)] += val;
            if (symmetric && i != j) v[(j - 1) * n + (i - 1)] += val;
            read++;
        }
        return SquareMatrix.of(n, v);
    }

    private static int parseInt(String s, String name, int line) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw error(name, line, "'" + s + "' is not an integer");
        }
    }

    private static IllegalArgumentException error(String name, int line, String what) {
        return new IllegalArgumentException(name + ":" + line + ": " + what);
    }
}
