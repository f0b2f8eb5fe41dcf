package dev.squall.sparse.spmm;

import java.util.Locale;

/** How the K vectors of a dense block X (and Y) are laid out in one array. */
public enum Layout {
    /** Row-major: element (j, c) at {@code j * K + c}; a row of X is contiguous. */
    ROW_MAJOR,
    /** Column-major: element (j, c) at {@code c * n + j}; each vector is contiguous. */
    COL_MAJOR;

    /** Parses {@code row} / {@code col} (also {@code row-major}, {@code col-major}). */
    public static Layout parse(String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "row", "row-major" -> ROW_MAJOR;
            case "col", "col-major", "column", "column-major" -> COL_MAJOR;
            default -> throw new IllegalArgumentException("layout '" + s + "' is not row or col");
        };
    }

    /** Index of element ({@code j}, {@code c}) of an {@code n x k} block. */
    public int index(int j, int c, int n, int k) {
        return this == ROW_MAJOR ? j * k + c : c * n + j;
    }
}
