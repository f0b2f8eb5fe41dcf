package dev.squall.hmatrix.points;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a {@link PointCloud} from a CSV file: one point a line, 2 or 3 numbers separated by commas (spaces around
 * them are allowed). Blank lines and lines starting with {@code #} are skipped; a first line that holds no number
 * (a header such as {@code x,y,z}) is skipped too. The dimension is that of the first point; every other line must
 * match it.
 *
 * <pre>{@code
 * PointCloud pts = PointsCsv.read(Path.of("sites.csv"));
 * }</pre>
 */
public final class PointsCsv {
    private PointsCsv() {
    }

    /**
     * The points of {@code file}.
     *
     * @throws IllegalArgumentException naming the file and line of the first bad line (wrong count of numbers, a value
     *                                  that is not a finite number), or saying the file is missing or holds no point
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static PointCloud read(Path file) {
        double[] c = new double[1024];
        int len = 0;
        int dim = 0;
        int lineNo = 0;
        boolean seenData = false;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] parts = t.split(",", -1);
                if (!seenData && isHeader(parts)) {
                    seenData = true;
                    continue;
                }
                seenData = true;
                if (dim == 0) {
                    if (parts.length != 2 && parts.length != 3) {
                        throw bad(file, lineNo, "expected 2 or 3 comma-separated coordinates, found " + parts.length);
                    }
                    dim = parts.length;
                } else if (parts.length != dim) {
                    throw bad(file, lineNo, "expected " + dim + " coordinates like the first point, found " + parts.length);
                }
                if (len + dim > c.length) {
                    c = Arrays.copyOf(c, Math.multiplyExact(c.length, 2));
                }
                for (int k = 0; k < dim; k++) {
                    String v = parts[k].strip();
                    double x;
                    try {
                        x = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw bad(file, lineNo, "coordinate " + (k + 1) + " '" + v + "' is not a number");
                    }
                    if (!Double.isFinite(x)) {
                        throw bad(file, lineNo, "coordinate " + (k + 1) + " '" + v + "' is not finite");
                    }
                    c[len++] = x;
                }
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        if (dim == 0) {
            throw new IllegalArgumentException(file + ": no points (expected lines of 2 or 3 comma-separated numbers)");
        }
        return PointCloud.of(dim, Arrays.copyOf(c, len));
    }

    /** A line of names: no field parses as a number. */
    private static boolean isHeader(String[] parts) {
        for (String p : parts) {
            try {
                Double.parseDouble(p.strip());
                return false;
            } catch (NumberFormatException e) {
                // a name, not a number
            }
        }
        return true;
    }

    private static IllegalArgumentException bad(Path file, int line, String what) {
        return new IllegalArgumentException(file + ":" + line + ": " + what);
    }
}
