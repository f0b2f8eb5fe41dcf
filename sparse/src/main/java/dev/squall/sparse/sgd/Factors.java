package dev.squall.sparse.sgd;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A trained (or initial) model: user factors W ({@code users x k}, row-major), item factors H ({@code items x k}),
 * optional user and item biases, and the global mean. The prediction for {@code (u, i)} is
 * {@code mean + W[u] . H[i]} (+ {@code bu[u] + bi[i]} with biases).
 *
 * <p>Saved as {@code DIR/factors.bin}, little-endian: the 8 bytes {@code SQSGDF01}, int32 users, int32 items, int32 k,
 * int32 flags (bit 0: biases present), float32 mean, then W ({@code users k} float32), H ({@code items k} float32),
 * and with biases bu ({@code users}) and bi ({@code items}) float32. When the ratings had ids, {@code DIR/users.txt}
 * and {@code DIR/items.txt} hold them, line {@code n} for dense index {@code n}.
 *
 * <pre>{@code
 * Factors f = Factors.random(users, items, 32, false, 3.6f, 7);
 * f.save(Path.of("model"), ratings);
 * List<Factors.Scored> top = Factors.load(Path.of("model")).topN(user, 10, ratings);
 * }</pre>
 */
public final class Factors {
    private static final byte[] MAGIC = "SQSGDF01".getBytes(StandardCharsets.US_ASCII);
    /** Standard deviation of the initial features. */
    public static final double INIT_STD = 0.1;

    private final int users, items, k;
    private final float[] w, h, bu, bi;
    private final float mean;

    /** Wraps the arrays (not copied); {@code bu} and {@code bi} are null without biases. */
    public Factors(int users, int items, int k, float[] w, float[] h, float[] bu, float[] bi, float mean) {
        if (k < 1) throw new IllegalArgumentException("rank " + k + " must be at least 1");
        if (w.length != (long) users * k || h.length != (long) items * k) throw new IllegalArgumentException("factor sizes do not match " + users + " x " + items + " x " + k);
        if ((bu == null) != (bi == null)) throw new IllegalArgumentException("give both biases or none");
        if (bu != null && (bu.length != users || bi.length != items)) throw new IllegalArgumentException("bias sizes do not match " + users + " x " + items);
        this.users = users;
        this.items = items;
        this.k = k;
        this.w = w;
        this.h = h;
        this.bu = bu;
        this.bi = bi;
        this.mean = mean;
    }

    /** Seeded initial factors: Gaussian features of standard deviation {@link #INIT_STD}, zero biases. */
    public static Factors random(int users, int items, int k, boolean biases, float mean, long seed) {
        if ((long) users * k > Integer.MAX_VALUE - 8 || (long) items * k > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(Math.max(users, items) + " rows x rank " + k + " exceed 2^31 factor values");
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] w = new float[users * k];
        float[] h = new float[items * k];
        for (int t = 0; t < w.length; t++) w[t] = (float) (INIT_STD * rnd.nextGaussian());
        for (int t = 0; t < h.length; t++) h[t] = (float) (INIT_STD * rnd.nextGaussian());
        return new Factors(users, items, k, w, h, biases ? new float[users] : null, biases ? new float[items] : null, mean);
    }

    /** A deep copy. */
    public Factors copy() {
        return new Factors(users, items, k, w.clone(), h.clone(), bu == null ? null : bu.clone(), bi == null ? null : bi.clone(), mean);
    }

    public int users() {
        return users;
    }

    public int items() {
        return items;
    }

    /** The rank (features per row). */
    public int rank() {
        return k;
    }

    /** User factors, row-major (not a copy). */
    public float[] w() {
        return w;
    }

    /** Item factors, row-major (not a copy). */
    public float[] h() {
        return h;
    }

    /** User biases or null. */
    public float[] userBias() {
        return bu;
    }

    /** Item biases or null. */
    public float[] itemBias() {
        return bi;
    }

    public float mean() {
        return mean;
    }

    public boolean biases() {
        return bu != null;
    }

    /** The predicted rating of user {@code u} for item {@code i}, in float as the kernels compute it. */
    public float predict(int u, int i) {
        float dot = 0f;
        for (int f = 0; f < k; f++) dot += w[u * k + f] * h[i * k + f];
        float p = mean + dot;
        if (bu != null) p = p + bu[u] + bi[i];
        return p;
    }

    /** Root mean squared error over {@code r} (NaN for no ratings). */
    public double rmse(Ratings r) {
        double s = 0;
        for (int e = 0; e < r.size(); e++) {
            double d = (double) r.value(e) - predict(r.user(e), r.item(e));
            s += d * d;
        }
        return r.size() == 0 ? Double.NaN : Math.sqrt(s / r.size());
    }

    /** An item and its predicted rating. */
    public record Scored(int item, float score) {
    }

    /** The {@code n} items of highest prediction for user {@code u}, best first, leaving out items {@code u} rated in {@code seen} (may be null). */
    public List<Scored> topN(int u, int n, Ratings seen) {
        if (u < 0 || u >= users) throw new IllegalArgumentException("user " + u + " is outside 0.." + (users - 1));
        if (n < 1) throw new IllegalArgumentException("top-N needs N >= 1, got " + n);
        boolean[] skip = new boolean[items];
        if (seen != null) for (int e = 0; e < seen.size(); e++) if (seen.user(e) == u) skip[seen.item(e)] = true;
        List<Scored> all = new ArrayList<>();
        for (int i = 0; i < items; i++) if (!skip[i]) all.add(new Scored(i, predict(u, i)));
        all.sort((a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.item, b.item));
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
    }

    /** Writes {@code DIR/factors.bin} (and the id maps of {@code ids}, when it has them); creates DIR. */
    public void save(Path dir, Ratings ids) throws IOException {
        Files.createDirectories(dir);
        try (OutputStream out = Files.newOutputStream(dir.resolve("factors.bin"))) {
            ByteBuffer head = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
            head.put(MAGIC).putInt(users).putInt(items).putInt(k).putInt(bu != null ? 1 : 0).putFloat(mean);
            out.write(head.array());
            writeFloats(out, w);
            writeFloats(out, h);
            if (bu != null) {
                writeFloats(out, bu);
                writeFloats(out, bi);
            }
        }
        if (ids != null && ids.hasIds()) {
            List<String> u = new ArrayList<>(ids.users());
            for (int x = 0; x < ids.users(); x++) u.add(ids.userId(x));
            List<String> i = new ArrayList<>(ids.items());
            for (int x = 0; x < ids.items(); x++) i.add(ids.itemId(x));
            Files.write(dir.resolve("users.txt"), u, StandardCharsets.UTF_8);
            Files.write(dir.resolve("items.txt"), i, StandardCharsets.UTF_8);
        }
    }

    /** Reads {@code DIR/factors.bin}. */
    public static Factors load(Path dir) throws IOException {
        Path f = dir.resolve("factors.bin");
        if (!Files.isRegularFile(f)) throw new IllegalArgumentException(f + ": no such file");
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
            byte[] head = new byte[28];
            try {
                in.readFully(head);
            } catch (java.io.EOFException e) {
                throw new IllegalArgumentException(f + ": too short for a factors header");
            }
            ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
            byte[] magic = new byte[8];
            b.get(magic);
            if (!Arrays.equals(magic, MAGIC)) throw new IllegalArgumentException(f + ": not a Squall factors file (no SQSGDF01 header)");
            int users = b.getInt(), items = b.getInt(), k = b.getInt(), flags = b.getInt();
            float mean = b.getFloat();
            if (users < 0 || items < 0 || k < 1 || k > 512 || (flags & ~1) != 0) {
                throw new IllegalArgumentException(f + ": bad header (" + users + " users, " + items + " items, rank " + k + ", flags " + flags + ")");
            }
            try {
                float[] w = readFloats(in, users * k);
                float[] h = readFloats(in, items * k);
                float[] bu = (flags & 1) != 0 ? readFloats(in, users) : null;
                float[] bi = (flags & 1) != 0 ? readFloats(in, items) : null;
                return new Factors(users, items, k, w, h, bu, bi, mean);
            } catch (java.io.EOFException e) {
                throw new IllegalArgumentException(f + ": file ends before the factors its header announces");
            }
        }
    }

    private static void writeFloats(OutputStream out, float[] a) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : a) {
            if (!buf.hasRemaining()) {
                out.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            buf.putFloat(v);
        }
        out.write(buf.array(), 0, buf.position());
    }

    private static float[] readFloats(InputStream in, int n) throws IOException {
        float[] a = new float[n];
        byte[] chunk = new byte[1 << 16];
        int t = 0;
        while (t < n) {
            int bytes = Math.min(chunk.length, (n - t) * 4);
            new DataInputStream(in).readFully(chunk, 0, bytes);
            ByteBuffer b = ByteBuffer.wrap(chunk, 0, bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int q = 0; q < bytes / 4; q++) a[t++] = b.getFloat();
        }
        return a;
    }
}
