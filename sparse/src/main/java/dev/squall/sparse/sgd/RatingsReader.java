package dev.squall.sparse.sgd;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads ratings files, remapping user and item ids densely in order of first appearance and keeping the originals:
 * <ul>
 * <li>text: one rating a line, {@code user item rating [timestamp]}, separated by spaces or tabs; blank lines and
 *     lines starting with {@code #} or {@code %} are skipped (MovieLens {@code u.data}, {@code ratings.dat} with
 *     {@code ::});</li>
 * <li>CSV with a header line ({@code .csv}): the first three columns are user, item, rating (MovieLens
 *     {@code ratings.csv});</li>
 * <li>Matrix Market ({@code .mtx}, read with {@link MatrixMarketReader}): rows are users, columns items; users and
 *     items with no entry are dropped and the 1-based indices kept as ids.</li>
 * </ul>
 * A line that cannot be read is reported with the file and line number, as is a rating that is not a finite number.
 *
 * <pre>{@code
 * Ratings r = RatingsReader.read(Path.of("ratings.csv"));
 * String original = r.userId(0);
 * }</pre>
 */
public final class RatingsReader {
    private RatingsReader() {
    }

    /** Reads {@code path}, choosing the format from its name ({@code .mtx}, {@code .csv}, anything else text). */
    public static Ratings read(Path path) throws IOException {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!Files.isRegularFile(path)) throw new IllegalArgumentException(path + ": no such file");
        try {
            if (name.endsWith(".mtx")) return matrixMarket(MatrixMarketReader.read(path));
            try (InputStream in = Files.newInputStream(path)) {
                return name.endsWith(".csv") ? csv(in, path.toString()) : text(in, path.toString());
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(path + ": no such file");
        }
    }

    /** Ratings from a Matrix Market matrix (duplicates summed by the reader); empty rows and columns dropped. */
    public static Ratings matrixMarket(CsrMatrix a) {
        if (a.nnz() == 0) throw new IllegalArgumentException("the matrix (" + a.rows() + " x " + a.cols() + ") has no ratings");
        int[] userOf = new int[a.rows()];
        int[] itemOf = new int[a.cols()];
        Arrays.fill(userOf, -1);
        Arrays.fill(itemOf, -1);
        List<String> uid = new ArrayList<>();
        List<String> iid = new ArrayList<>();
        int n = a.nnz();
        int[] u = new int[n];
        int[] it = new int[n];
        float[] v = new float[n];
        int t = 0;
        for (int r = 0; r < a.rows(); r++) {
            for (int k = a.rowStart(r); k < a.rowStart(r + 1); k++) {
                int c = a.colIndex(k);
                if (userOf[r] < 0) {
                    userOf[r] = uid.size();
                    uid.add(Integer.toString(r + 1));
                }
                if (itemOf[c] < 0) {
                    itemOf[c] = iid.size();
                    iid.add(Integer.toString(c + 1));
                }
                u[t] = userOf[r];
                it[t] = itemOf[c];
                v[t++] = (float) a.value(k);
            }
        }
        return Ratings.of(uid.size(), iid.size(), u, it, v, uid.toArray(String[]::new), iid.toArray(String[]::new));
    }

    /** {@code user item rating [timestamp]} lines; {@code name} is used in error messages. */
    public static Ratings text(InputStream in, String name) throws IOException {
        return parse(in, name, false);
    }

    /** CSV with a header line, user, item and rating in the first three columns. */
    public static Ratings csv(InputStream in, String name) throws IOException {
        return parse(in, name, true);
    }

    private static Ratings parse(InputStream in, String name, boolean csv) throws IOException {
        Builder b = new Builder();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        String line;
        long no = 0;
        boolean header = csv;
        while ((line = r.readLine()) != null) {
            no++;
            String s = line.strip();
            if (header) {
                if (s.isEmpty()) continue;
                String[] h = s.split(",");
                if (h.length < 3) throw bad(name, no, "expected a header with at least 3 columns (user,item,rating), found '" + s + "'");
                header = false;
                continue;
            }
            if (s.isEmpty() || (!csv && (s.startsWith("#") || s.startsWith("%")))) continue;
            String[] f = csv ? s.split(",", -1) : s.contains("::") ? s.split("::") : s.split("\\s+");
            if (f.length < 3 || f.length > (csv ? Integer.MAX_VALUE : 4)) {
                throw bad(name, no, csv ? "expected user,item,rating[,...], found " + f.length + " field(s): '" + s + "'"
                        : "expected 'user item rating [timestamp]', found " + f.length + " field(s): '" + s + "'");
            }
            String us = f[0].strip(), is = f[1].strip(), vs = f[2].strip();
            if (us.isEmpty() || is.isEmpty()) throw bad(name, no, "empty user or item id in '" + s + "'");
            float v;
            try {
                v = Float.parseFloat(vs);
            } catch (NumberFormatException e) {
                throw bad(name, no, "rating '" + vs + "' is not a number");
            }
            if (!Float.isFinite(v)) throw bad(name, no, "rating '" + vs + "' is not a finite number");
            b.add(us, is, v);
        }
        if (header) throw bad(name, no, "the file is empty: expected a CSV header line");
        if (b.n == 0) throw new IllegalArgumentException(name + ": no ratings in the file");
        return b.build();
    }

    private static IllegalArgumentException bad(String name, long line, String what) {
        return new IllegalArgumentException(name + ":" + line + ": " + what);
    }

    /** Accumulates ratings with string ids, remapping them densely. */
    private static final class Builder {
        final Map<String, Integer> users = new HashMap<>();
        final Map<String, Integer> items = new HashMap<>();
        final List<String> userIds = new ArrayList<>();
        final List<String> itemIds = new ArrayList<>();
        int[] u = new int[1024];
        int[] i = new int[1024];
        float[] v = new float[1024];
        int n;

        void add(String user, String item, float value) {
            if (n == u.length) {
                int cap = (int) Math.min(Integer.MAX_VALUE - 16, 2L * n);
                if (cap == n) throw new IllegalArgumentException("more than " + n + " ratings: too many for one array");
                u = Arrays.copyOf(u, cap);
                i = Arrays.copyOf(i, cap);
                v = Arrays.copyOf(v, cap);
            }
            u[n] = users.computeIfAbsent(user, k -> {
                userIds.add(k);
                return userIds.size() - 1;
            });
            i[n] = items.computeIfAbsent(item, k -> {
                itemIds.add(k);
                return itemIds.size() - 1;
            });
            v[n++] = value;
        }

        Ratings build() {
            return Ratings.of(userIds.size(), itemIds.size(), Arrays.copyOf(u, n), Arrays.copyOf(i, n), Arrays.copyOf(v, n),
                    userIds.toArray(String[]::new), itemIds.toArray(String[]::new));
        }
    }
}
