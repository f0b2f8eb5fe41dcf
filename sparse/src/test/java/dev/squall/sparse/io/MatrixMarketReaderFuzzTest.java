package dev.squall.sparse.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.AllocatedBytes;
import dev.squall.sparse.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Feeds the reader 12,000 seeded mutations of shipped and generated Matrix Market files (bytes changed, inserted and
 * deleted; lines repeated, dropped and swapped; numbers replaced by edge cases; banners and size lines altered;
 * files cut short) and asserts, for every one: the reader throws nothing but {@link MatrixMarketException}; it
 * allocates no more than a bound linear in the file's length and declared rows; a file it accepts is exactly (bit for
 * bit) what a strict reference parser written here from the Matrix Market rules makes of it; a file the reference
 * accepts is accepted too, unless it needs more memory than the reader was given.
 */
class MatrixMarketReaderFuzzTest {
    private static final int MUTATIONS = 12_000;
    /** The heap the reader may count on here: files whose dimensions need more are refused at the size line. */
    private static final long HEAP_LIMIT = 256L << 20;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void mutatedFilesAreRejectedCleanlyOrReadExactlyAsTheReferenceReadsThem() throws IOException {
        List<byte[]> seeds = seeds();
        SplittableRandom rnd = new SplittableRandom(20261124);
        int accepted = 0;
        int rejected = 0;
        for (int m = 0; m < MUTATIONS; m++) {
            byte[] file = seeds.get(rnd.nextInt(seeds.size())).clone();
            int rounds = rnd.nextInt(10) < 6 ? 1 : 2 + rnd.nextInt(2);
            for (int r = 0; r < rounds; r++) file = mutate(file, rnd);
            Reference ref = Reference.parse(file);
            CsrMatrix got = null;
            MatrixMarketException error = null;
            long before = AllocatedBytes.ofCurrentThread();
            try {
                got = MatrixMarketReader.read(new ByteArrayInputStream(file), "fuzz.mtx", file.length, HEAP_LIMIT,
                        MatrixMarketReader.SizeCheck.ANY);
            } catch (MatrixMarketException e) {
                error = e;
            } catch (Throwable t) {
                throw new AssertionError("mutation " + m + ": the reader threw " + t + " on\n" + show(file), t);
            }
            long allocated = AllocatedBytes.ofCurrentThread() - before;
            long bound = (4L << 20) + 100L * file.length + 16L * (ref.declaredRows + 1);
            if (allocated > bound) {
                fail("mutation " + m + ": the reader allocated " + allocated + " bytes, more than " + bound + " for\n" + show(file));
            }
            if (got != null) {
                accepted++;
                if (ref.entries == null) {
                    fail("mutation " + m + ": the reader accepted a file the reference rejects (" + ref.reason + ")\n" + show(file));
                }
                assertSame(ref, got, m, file);
            } else {
                rejected++;
                assertTrue(error.getMessage().startsWith("fuzz.mtx:"), error.getMessage());
                if (ref.entries != null && !error.getMessage().contains("Java heap")) {
                    fail("mutation " + m + ": the reader rejected a file the reference accepts: " + error.getMessage() + "\n" + show(file));
                }
            }
        }
        System.out.println("Matrix Market fuzz: " + accepted + " mutations accepted (read as the reference reads them), "
                + rejected + " rejected with file and line");
        // both outcomes must be well represented, or the mutations test little
        assertTrue(accepted > MUTATIONS / 10, accepted + " accepted");
        assertTrue(rejected > MUTATIONS / 2, rejected + " rejected");
    }

    private static void assertSame(Reference ref, CsrMatrix got, int m, byte[] file) {
        String where = "mutation " + m + "\n" + show(file);
        assertEquals(ref.rows, got.rows(), where);
        assertEquals(ref.cols, got.cols(), where);
        assertEquals(ref.entries.size(), got.nnz(), where);
        int k = 0;
        for (Map.Entry<Long, Double> e : ref.entries.entrySet()) {
            int i = (int) (e.getKey() >>> 32);
            int j = (int) (long) e.getKey();
            if (got.rowStart(i) > k || k >= got.rowStart(i + 1) || got.colIndex(k) != j
                    || Double.doubleToLongBits(got.value(k)) != Double.doubleToLongBits(e.getValue())) {
                fail("entry " + k + ": the reference has (" + i + ", " + j + ") = " + e.getValue() + ", the reader column "
                        + got.colIndex(k) + " = " + got.value(k) + "; " + where);
            }
            k++;
        }
    }

    /** Small shipped matrices of three kinds, and generated ones for the forms they lack. */
    private static List<byte[]> seeds() throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        for (String f : List.of("ani1.mtx", "bcsstk01.mtx", "mycielskian6.mtx")) seeds.add(Files.readAllBytes(TestData.file(f)));
        SplittableRandom r = new SplittableRandom(7);
        StringBuilder s = new StringBuilder("%%MatrixMarket matrix array real general\n% 4 x 3, column by column\n4 3\n");
        for (int q = 0; q < 12; q++) s.append(String.format(Locale.ROOT, "%.6e%n", r.nextDouble(-2, 2)));
        seeds.add(ascii(s));
        s = new StringBuilder("%%MatrixMarket matrix array integer symmetric\n4 4\n");
        for (int q = 0; q < 10; q++) s.append(r.nextInt(-50, 50)).append('\n');
        seeds.add(ascii(s));
        s = new StringBuilder("%%MatrixMarket matrix array real skew-symmetric\n4 4\n");
        for (int q = 0; q < 6; q++) s.append(r.nextInt(1, 9)).append('.').append(r.nextInt(100)).append('\n');
        seeds.add(ascii(s));
        s = new StringBuilder("%%MatrixMarket matrix coordinate integer general\n%\n6 7 14\n");
        for (int q = 0; q < 14; q++) {
            s.append(1 + r.nextInt(6)).append(' ').append(1 + r.nextInt(7)).append(' ').append(r.nextInt(-9, 10)).append('\n');
            if (q == 6) s.append('\n');
        }
        seeds.add(ascii(s.append("% trailing comment\n")));
        s = new StringBuilder("%%MatrixMarket matrix coordinate real skew-symmetric\n5 5 6\n");
        for (int q = 0; q < 6; q++) {
            int i = 2 + r.nextInt(4);
            s.append(i).append('\t').append(1 + r.nextInt(i - 1)).append(' ').append(r.nextDouble(-1e3, 1e3)).append("\r\n");
        }
        seeds.add(ascii(s));
        return seeds;
    }

    private static byte[] ascii(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static final byte[] ALPHABET = " \t\n\r%+-.eE0123456789xdfNI\0".getBytes(StandardCharsets.ISO_8859_1);
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "+3", ".5", "5.", "1e308", "-1.7976931348623157e308",
        "1e309", "4.9e-324", "1e-400", "2147483638", "2147483639", "2147483647", "4294967297", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "99999999999999999999", "NaN", "Infinity", "1f", "1.0d", "0x1p3",
        "1e", "--1", "1.2.3", "100000000", "2000000000"};
    private static final String[] BANNER_WORDS = {"coordinate", "array", "real", "double", "integer", "pattern", "complex",
        "general", "symmetric", "skew-symmetric", "hermitian", "MATRIX", "Real"};

    private static byte[] mutate(byte[] f, SplittableRandom r) {
        if (f.length == 0) return ascii("%%MatrixMarket matrix coordinate real general\n");
        int at = r.nextInt(f.length);
        List<String> lines = new ArrayList<>(Arrays.asList(new String(f, StandardCharsets.ISO_8859_1).split("\n", -1)));
        int line = r.nextInt(lines.size());
        switch (r.nextInt(12)) {
            case 0 -> f[at] = ALPHABET[r.nextInt(ALPHABET.length)];
            case 1 -> f[at] = (byte) r.nextInt(256);
            case 2 -> {
                byte[] g = new byte[f.length - 1];
                System.arraycopy(f, 0, g, 0, at);
                System.arraycopy(f, at + 1, g, at, f.length - at - 1);
                return g;
            }
            case 3 -> {
                byte[] g = new byte[f.length + 1];
                System.arraycopy(f, 0, g, 0, at);
                g[at] = ALPHABET[r.nextInt(ALPHABET.length)];
                System.arraycopy(f, at, g, at + 1, f.length - at);
                return g;
            }
            case 4 -> lines.add(line, lines.get(r.nextInt(lines.size())));
            case 5 -> lines.remove(line);
            case 6 -> {
                int other = r.nextInt(lines.size());
                String t = lines.get(line);
                lines.set(line, lines.get(other));
                lines.set(other, t);
            }
            case 7, 8 -> lines.set(line, replaceWord(lines.get(line), NUMBERS[r.nextInt(NUMBERS.length)], r));
            case 9 -> lines.set(0, replaceWord(lines.get(0), BANNER_WORDS[r.nextInt(BANNER_WORDS.length)], r));
            case 10 -> {
                if (lines.size() < 2) return Arrays.copyOf(f, at);
                int size = 1;
                while (size < lines.size() - 1 && lines.get(size).startsWith("%")) size++;
                String[] w = lines.get(size).trim().split("[ \t]+");
                int q = r.nextInt(w.length);
                try {
                    long v = Long.parseLong(w[q]);
                    w[q] = Long.toString(switch (r.nextInt(4)) {
                        case 0 -> v + 1;
                        case 1 -> v - 1;
                        case 2 -> v * 10;
                        default -> v * 1000 + r.nextInt(1000);
                    });
                } catch (NumberFormatException e) {
                    w[q] = "1";
                }
                lines.set(size, String.join(" ", w));
            }
            default -> {
                return Arrays.copyOf(f, at);
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code line} with one of its whitespace-separated words (or a new one at the end) replaced by {@code word}. */
    private static String replaceWord(String line, String word, SplittableRandom r) {
        String[] w = line.split(" ", -1);
        int q = r.nextInt(w.length + 1);
        if (q == w.length) return line + " " + word;
        w[q] = word;
        return String.join(" ", w);
    }

    private static String show(byte[] file) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(file.length, 600); i++) {
            int b = file[i] & 0xff;
            if (b == '\n' || (b >= 0x20 && b < 0x7f)) sb.append((char) b);
            else sb.append(String.format("\\x%02x", b));
        }
        return file.length > 600 ? sb + "... (" + file.length + " bytes)" : sb.toString();
    }

    /**
     * The Matrix Market rules, applied plainly to the file as text: the banner (ASCII, five words), comments and blank
     * lines up to the size line, exactly the declared entries (blank lines between them allowed, comments not), then
     * only blank lines and comments. Indices in range; symmetric files store the lower triangle (skew-symmetric ones
     * without the diagonal); integers are {@code [+-]digits} within a long; reals are plain decimals, finite;
     * duplicates are summed in file order and must stay finite; array files list their values column by column.
     */
    static final class Reference {
        private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
        private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
        private static final Pattern SPACE = Pattern.compile("[ \t\r]+");
        private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
        private static final long MAX_DIMENSION = Integer.MAX_VALUE - 9;
        private static final long MAX_ENTRIES = Integer.MAX_VALUE - 8;

        long declaredRows;
        int rows;
        int cols;
        /** Row-major: key {@code row << 32 | col}; null when the file is rejected. */
        TreeMap<Long, Double> entries;
        String reason;

        static Reference parse(byte[] file) {
            Reference ref = new Reference();
            try {
                ref.read(file);
            } catch (IllegalArgumentException e) {
                ref.entries = null;
                ref.reason = e.getMessage();
            }
            return ref;
        }

        private static IllegalArgumentException bad(String why) {
            return new IllegalArgumentException(why);
        }

        private static String[] words(String line) {
            // split on spaces, tabs and carriage returns only (String.trim would also drop other control bytes)
            return Arrays.stream(SPACE.split(line)).filter(w -> !w.isEmpty()).toArray(String[]::new);
        }

        private static long integer(String s) {
            if (!INTEGER.matcher(s).matches()) throw bad("not an integer: " + s);
            BigInteger v = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
            if (v.abs().compareTo(LONG_MAX) > 0) throw bad("integer too large: " + s);
            return v.longValue();
        }

        private static double value(String s, String field) {
            if (field.equals("integer")) return integer(s);
            if (!DECIMAL.matcher(s).matches()) throw bad("not a decimal: " + s);
            double v = Double.parseDouble(s);
            if (!Double.isFinite(v)) throw bad("not finite: " + s);
            return v;
        }

        private static boolean blank(String line) {
            return SPACE.matcher(line).replaceAll("").isEmpty();
        }

        private void read(byte[] file) {
            String text = new String(file, StandardCharsets.ISO_8859_1);
            List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
            if (text.endsWith("\n")) lines.removeLast(); // the piece after the last newline is not a line
            for (int q = 0; q < lines.size(); q++) {
                String l = lines.get(q);
                if (l.endsWith("\r")) lines.set(q, l.substring(0, l.length() - 1));
            }
            if (lines.isEmpty()) throw bad("empty");
            String banner = lines.get(0);
            for (char c : banner.toCharArray()) if ((c < 0x20 || c > 0x7e) && c != '\t' && c != '\r') throw bad("binary banner");
            String[] b = words(banner.toLowerCase(Locale.ROOT));
            if (b.length != 5 || !b[0].equals("%%matrixmarket") || !b[1].equals("matrix")) throw bad("banner");
            String format = b[2];
            String field = b[3].equals("double") ? "real" : b[3];
            String symmetry = b[4];
            if (!List.of("coordinate", "array").contains(format)) throw bad("format");
            if (!List.of("real", "integer", "pattern").contains(field)) throw bad("field");
            if (!List.of("general", "symmetric", "skew-symmetric").contains(symmetry)) throw bad("symmetry");
            if (format.equals("array") && field.equals("pattern")) throw bad("pattern array");
            if (field.equals("pattern") && symmetry.equals("skew-symmetric")) throw bad("pattern skew");
            int at = 1;
            while (at < lines.size() && (blank(lines.get(at)) || lines.get(at).startsWith("%"))) at++;
            if (at == lines.size()) throw bad("no size line");
            String[] size = words(lines.get(at++));
            boolean coordinate = format.equals("coordinate");
            if (size.length < 2) throw bad("size line");
            long r = integer(size[0]);
            declaredRows = Math.max(0, r);
            long c = integer(size[1]);
            if (size.length != (coordinate ? 3 : 2)) throw bad("size line length");
            if (r < 0 || c < 0 || r > MAX_DIMENSION || c > MAX_DIMENSION) throw bad("dimensions");
            boolean mirrored = !symmetry.equals("general");
            if (mirrored && r != c) throw bad("not square");
            rows = (int) r;
            cols = (int) c;
            entries = new TreeMap<>();
            if (coordinate) {
                long n = integer(size[2]);
                if (n < 0 || n > MAX_ENTRIES) throw bad("count");
                for (long e = 0; e < n; e++) {
                    while (at < lines.size() && blank(lines.get(at))) at++;
                    if (at == lines.size()) throw bad("too few entries");
                    String[] t = words(lines.get(at++));
                    if (t.length != (field.equals("pattern") ? 2 : 3)) throw bad("entry length");
                    long i = integer(t[0]);
                    long j = integer(t[1]);
                    if (i < 1 || i > rows || j < 1 || j > cols) throw bad("index");
                    double v = field.equals("pattern") ? 1 : value(t[2], field);
                    if (mirrored && j > i) throw bad("upper triangle");
                    if (symmetry.equals("skew-symmetric") && i == j) throw bad("skew diagonal");
                    add((int) i - 1, (int) j - 1, v, symmetry);
                }
            } else {
                for (int j = 0; j < cols; j++) {
                    int first = switch (symmetry) {
                        case "general" -> 0;
                        case "symmetric" -> j;
                        default -> j + 1;
                    };
                    for (int i = first; i < rows; i++) {
                        while (at < lines.size() && blank(lines.get(at))) at++;
                        if (at == lines.size()) throw bad("too few values");
                        String[] t = words(lines.get(at++));
                        if (t.length != 1) throw bad("array line length");
                        add(i, j, value(t[0], field), symmetry);
                    }
                }
            }
            for (; at < lines.size(); at++) {
                if (!blank(lines.get(at)) && !lines.get(at).startsWith("%")) throw bad("data after the entries");
            }
            for (double v : entries.values()) if (!Double.isFinite(v)) throw bad("duplicates overflow");
        }

        private void add(int i, int j, double v, String symmetry) {
            entries.merge(((long) i << 32) | j, v, Double::sum);
            if (!symmetry.equals("general") && i != j) {
                entries.merge(((long) j << 32) | i, symmetry.equals("skew-symmetric") ? -v : v, Double::sum);
            }
        }
    }
}
