package dev.squall.sparse.io;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketHeader.Field;
import dev.squall.sparse.io.MatrixMarketHeader.Format;
import dev.squall.sparse.io.MatrixMarketHeader.Symmetry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads Matrix Market files (coordinate and array; real, integer, pattern; general, symmetric,
 * skew-symmetric) into a {@link CsrMatrix}; the one reader of every Squall module. The file is
 * streamed once through a byte buffer and parsed without creating a string per token, so files
 * of 100M entries read at disk speed.
 *
 * <p>Duplicate coordinate entries are summed (a sum that overflows to infinity is an error at
 * the line of the entry that overflows it) and explicit zeros are kept. Symmetric and
 * skew-symmetric files must store the lower triangle; the upper one is mirrored from it.
 * Every error is a {@link MatrixMarketException} naming the file and line: truncated files,
 * wrong counts, indices out of range, text that is not a finite decimal number, comments among
 * the entries, complex or hermitian matrices, binary files, directories, missing files.
 *
 * <p>The size line is checked before anything is allocated from it: a declared entry count must
 * fit in the rest of the file (each entry line takes a few bytes at least), and the arrays the
 * dimensions and count imply must fit in the Java heap. Storage then grows as entries arrive, so a
 * false count never allocates more than the entries actually present.
 *
 * <pre>{@code
 * CsrMatrix a = MatrixMarketReader.read(Path.of("1138_bus.mtx"));
 * CsrMatrix b = MatrixMarketReader.read(Path.of("b.mtx"), (rows, cols) -> {
 *     if (rows != cols) throw new IllegalArgumentException("a square matrix is needed, this one is " + rows + " x " + cols);
 * });
 * }</pre>
 */
public final class MatrixMarketReader {
    /** The most entries a {@link CsrMatrix} holds (its arrays are indexed by int). */
    static final long MAX_ENTRIES = Integer.MAX_VALUE - 8;
    /** The most rows or columns (the row pointers of a CSR matrix have one more). */
    static final long MAX_DIMENSION = MAX_ENTRIES - 1;

    /**
     * A caller's condition on the dimensions, checked at the size line before any entry is read or
     * any array allocated (a permanent takes small square matrices only, for instance).
     */
    @FunctionalInterface
    public interface SizeCheck {
        /** Accepts every size the reader can hold. */
        SizeCheck ANY = (rows, cols) -> { };

        /**
         * @throws IllegalArgumentException saying why {@code rows x cols} is refused; the reader
         *                                  reports the message at the size line of the file
         */
        void check(int rows, int cols);
    }

    private MatrixMarketReader() {
    }

    /** Reads the file at {@code path}. */
    public static CsrMatrix read(Path path) throws IOException {
        return read(path, SizeCheck.ANY);
    }

    /**
     * Reads the file at {@code path}, calling {@code check} with its dimensions first.
     *
     * @throws MatrixMarketException for anything wrong with the file, including a missing file,
     *                               a directory or one that cannot be opened
     * @throws IOException           when reading fails part way (a device error)
     */
    public static CsrMatrix read(Path path, SizeCheck check) throws IOException {
        String name = path.toString();
        if (Files.isDirectory(path)) throw new MatrixMarketException(name, 0, "is a directory, not a Matrix Market file");
        InputStream in;
        try {
            in = Files.newInputStream(path);
        } catch (NoSuchFileException e) {
            throw new MatrixMarketException(name, 0, "no such file");
        } catch (AccessDeniedException e) {
            throw new MatrixMarketException(name, 0, "cannot be opened: permission denied");
        }
        try (in) {
            long length = Files.isRegularFile(path) ? Files.size(path) : -1;
            return read(in, name, length, Runtime.getRuntime().maxMemory(), check);
        }
    }

    /** Reads a Matrix Market stream; {@code name} is used in error messages. */
    public static CsrMatrix read(InputStream in, String name) throws IOException {
        return read(in, name, SizeCheck.ANY);
    }

    /** Reads a Matrix Market stream, calling {@code check} with its dimensions first. */
    public static CsrMatrix read(InputStream in, String name, SizeCheck check) throws IOException {
        return read(in, name, -1, Runtime.getRuntime().maxMemory(), check);
    }

    /**
     * @param length    the stream's length in bytes, or -1 when unknown
     * @param heapLimit the bytes the reader may count on (the heap's limit)
     */
    static CsrMatrix read(InputStream in, String name, long length, long heapLimit, SizeCheck check) throws IOException {
        LineSource src = new LineSource(in, name);
        MatrixMarketHeader h = readHeader(src);
        // skip comments and blank lines up to the size line
        do {
            if (!src.next()) throw src.error("file ends before the size line");
        } while (src.isBlank() || src.startsWith('%'));
        long rows = src.nextLong("row count");
        long cols = src.nextLong("column count");
        if (rows < 0 || cols < 0 || rows > MAX_DIMENSION || cols > MAX_DIMENSION) {
            throw src.error("dimensions " + rows + " x " + cols + " are out of range (0 .. " + MAX_DIMENSION + ")");
        }
        boolean coordinate = h.format() == Format.COORDINATE;
        boolean mirrored = h.symmetry() != Symmetry.GENERAL;
        long declared = coordinate ? src.nextLong("entry count") : 0;
        src.expectEnd(coordinate ? "the size line has three numbers: rows, columns, entries"
                : "the size line of an array file has two numbers: rows, columns");
        if (mirrored && rows != cols) {
            throw src.error("a " + symmetryName(h.symmetry()) + " matrix must be square, this one is " + rows + " x " + cols);
        }
        try {
            check.check((int) rows, (int) cols);
        } catch (MatrixMarketException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw src.error(e.getMessage());
        }
        long lines;     // entry lines the file must hold
        long slots;     // CSR entries they make, at most
        int minBytes;   // the shortest entry line, newline included ("1 1\n", "1 1 1\n", "1\n")
        if (coordinate) {
            if (declared < 0 || declared > MAX_ENTRIES) {
                throw src.error("entry count " + declared + " is out of range (0 .. " + MAX_ENTRIES + ")");
            }
            lines = declared;
            slots = mirrored ? 2 * declared : declared;
            minBytes = h.field() == Field.PATTERN ? 4 : 6;
        } else {
            lines = switch (h.symmetry()) {
                case GENERAL -> rows * cols;
                case SYMMETRIC -> rows * (rows + 1) / 2;
                case SKEW_SYMMETRIC -> rows * (rows - 1) / 2;
            };
            slots = h.symmetry() == Symmetry.SKEW_SYMMETRIC ? rows * rows - rows : rows * cols;
            minBytes = 2;
        }
        if (slots > MAX_ENTRIES) {
            throw src.error((coordinate ? declared + " entries" : rows + " x " + cols + " array")
                    + " is more than a sparse matrix holds (" + MAX_ENTRIES + " entries)");
        }
        if (length >= 0 && lines > 0) {
            long remaining = length - src.offset();
            long fit = (remaining + 1) / minBytes; // the last line may lack its newline
            if (lines > fit) {
                throw src.error("the file declares " + lines + (coordinate ? " entries" : " array values") + " but its remaining "
                        + remaining + " bytes hold at most " + fit + " (an entry line takes at least " + minBytes + " bytes)");
            }
        }
        // what the reader will hold at once, at least: the triplets read and the row counts of the CSR assembly
        long needed = 16 * lines + 12 * (rows + 1);
        if (needed > heapLimit) {
            throw src.error("a " + rows + " x " + cols + " matrix with " + lines + " entries needs at least " + mib(needed)
                    + " MiB to read, more than the Java heap's limit of " + mib(heapLimit) + " MiB (raise it with -Xmx)");
        }
        Triplets t = new Triplets(slots, h.symmetry() != Symmetry.GENERAL);
        try {
            if (coordinate) readCoordinate(src, h, (int) rows, (int) cols, (int) declared, t);
            else readArray(src, h, (int) rows, (int) cols, lines, t);
            CsrMatrix a = t.toCsr((int) rows, (int) cols);
            int bad = t.firstOverflow(a);
            if (bad >= 0) {
                int e = t.entryOf(bad);
                throw new MatrixMarketException(name, t.lineOf(e), "duplicate entries at (" + (t.row(bad) + 1) + ", "
                        + (t.col(bad) + 1) + ") sum to " + t.overflowSum() + "; values must add up to a finite number");
            }
            return a;
        } catch (OutOfMemoryError e) {
            int read = t.entries();
            t = null; // drop the triplets before building the message
            throw src.error("the Java heap (limit " + mib(heapLimit) + " MiB) ran out after " + read
                    + " entries; the matrix needs more (raise the limit with -Xmx)");
        }
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    private static String symmetryName(Symmetry s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static MatrixMarketHeader readHeader(LineSource src) throws IOException {
        if (!src.next()) throw src.error("empty file: expected a %%MatrixMarket banner");
        String[] t = src.asciiWords();
        if (t == null) {
            throw src.error("not a text file: the first line holds bytes outside printable ASCII ('" + src.quoted()
                    + "'); expected '%%MatrixMarket matrix FORMAT FIELD SYMMETRY'");
        }
        if (t.length != 5 || !t[0].equals("%%matrixmarket") || !t[1].equals("matrix")) {
            throw src.error("expected '%%MatrixMarket matrix FORMAT FIELD SYMMETRY', found '" + src.quoted() + "'");
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
        if (field == Field.PATTERN && sym == Symmetry.SKEW_SYMMETRIC) {
            throw src.error("a pattern matrix cannot be skew-symmetric");
        }
        return new MatrixMarketHeader(format, field, sym);
    }

    private static void readCoordinate(LineSource src, MatrixMarketHeader h, int rows, int cols, int n, Triplets t)
            throws IOException {
        boolean mirrored = h.symmetry() != Symmetry.GENERAL;
        boolean skew = h.symmetry() == Symmetry.SKEW_SYMMETRIC;
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
                        + symmetryName(h.symmetry()) + " file stores the lower triangle");
            }
            if (skew && i == j) throw src.error("skew-symmetric matrix has a diagonal entry (" + i + ", " + j + ")");
            t.add((int) i - 1, (int) j - 1, v, src.lineNumber());
            if (mirrored && i != j) t.addMirror(skew ? -v : v);
        }
        src.expectNoMoreData("the file declares " + n + " entries but has more");
    }

    /** Array files list values column by column; symmetric ones the lower triangle, skew-symmetric ones without the diagonal. */
    private static void readArray(LineSource src, MatrixMarketHeader h, int rows, int cols, long expected, Triplets t)
            throws IOException {
        Symmetry sym = h.symmetry();
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
                t.add(i, j, v, src.lineNumber());
                if (sym != Symmetry.GENERAL && i != j) t.addMirror(sym == Symmetry.SKEW_SYMMETRIC ? -v : v);
            }
        }
        src.expectNoMoreData("the file declares " + expected + " array values but has more");
    }
}
