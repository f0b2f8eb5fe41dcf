package dev.squall.sparse.io;

import java.util.Locale;

/**
 * The banner of a Matrix Market file: {@code %%MatrixMarket matrix FORMAT FIELD SYMMETRY}.
 *
 * @param format   {@code coordinate} (sparse triplets) or {@code array} (dense, column-major)
 * @param field    {@code real}, {@code integer} or {@code pattern} (complex is rejected)
 * @param symmetry {@code general}, {@code symmetric} or {@code skew-symmetric} (hermitian is rejected)
 */
public record MatrixMarketHeader(Format format, Field field, Symmetry symmetry) {
    public enum Format { COORDINATE, ARRAY }

    public enum Field { REAL, INTEGER, PATTERN }

    public enum Symmetry { GENERAL, SYMMETRIC, SKEW_SYMMETRIC }

    /** The banner line as written. */
    public String banner() {
        return "%%MatrixMarket matrix " + format.name().toLowerCase(Locale.ROOT) + " "
                + field.name().toLowerCase(Locale.ROOT) + " "
                + symmetry.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
