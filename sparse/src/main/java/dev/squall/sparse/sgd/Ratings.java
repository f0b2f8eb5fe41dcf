package dev.squall.sparse.sgd;

import java.util.Arrays;

/**
 * A ratings matrix in coordinate form: rating {@code e} is {@code value[e]} given by user {@code user[e]} to item
 * {@code item[e]}, with users {@code 0..users-1} and items {@code 0..items-1}. Readers remap the ids of a file densely
 * and keep the original ids ({@link #userId}, {@link #itemId}); generated ratings have none.
 *
 * <pre>{@code
 * Ratings r = Ratings.of(3, 2, new int[] {0, 2}, new int[] {1, 0}, new float[] {4f, 2.5f});
 * Ratings.Split s = r.split(0.1, 42);     // seeded 90/10 train/test split
 * }</pre>
 */
public final class Ratings {
    private final int users;
    private final int items;
    private final int[] user;
    private final int[] item;
    private final float[] value;
    private final String[] userIds;
    private final String[] itemIds;

    private Ratings(int users, int items, int[] user, int[] item, float[] value, String[] userIds, String[] itemIds) {
        this.users = users;
        this.items = items;
        this.user = user;
        this.item = item;
        this.value = value;
        this.userIds = userIds;
        this.itemIds = itemIds;
    }

    /** Ratings with dense ids and no original ids; checks every index and value (no NaN or infinite rating). */
    public static Ratings of(int users, int items, int[] user, int[] item, float[] value) {
        return of(users, items, user, item, value, null, null);
    }

    /** As {@link #of(int, int, int[], int[], float[])}, keeping the original id of each user and item (or null). */
    public static Ratings of(int users, int items, int[] user, int[] item, float[] value, String[] userIds, String[] itemIds) {
        if (users < 0 || items < 0) throw new IllegalArgumentException("negative dimensions: " + users + " users x " + items + " items");
        if (user.length != item.length || user.length != value.length) {
            throw new IllegalArgumentException("ratings arrays differ in length: " + user.length + " users, " + item.length + " items, "
                    + value.length + " values");
        }
        if (userIds != null && userIds.length != users) throw new IllegalArgumentException(userIds.length + " user ids for " + users + " users");
        if (itemIds != null && itemIds.length != items) throw new IllegalArgumentException(itemIds.length + " item ids for " + items + " items");
        for (int e = 0; e < user.length; e++) {
            if (user[e] < 0 || user[e] >= users) throw new IllegalArgumentException("rating " + e + ": user " + user[e] + " is outside 0.." + (users - 1));
            if (item[e] < 0 || item[e] >= items) throw new IllegalArgumentException("rating " + e + ": item " + item[e] + " is outside 0.." + (items - 1));
            if (!Float.isFinite(value[e])) {
                throw new IllegalArgumentException("rating " + e + " (user " + user[e] + ", item " + item[e] + ") is " + value[e] + ": ratings must be finite numbers");
            }
        }
        return new Ratings(users, items, user, item, value, userIds, itemIds);
    }

    /** Number of users (rows). */
    public int users() {
        return users;
    }

    /** Number of items (columns). */
    public int items() {
        return items;
    }

    /** Number of ratings. */
    public int size() {
        return user.length;
    }

    /** User of rating {@code e}. */
    public int user(int e) {
        return user[e];
    }

    /** Item of rating {@code e}. */
    public int item(int e) {
        return item[e];
    }

    /** Value of rating {@code e}. */
    public float value(int e) {
        return value[e];
    }

    /** The user index of every rating (not a copy). */
    public int[] userArray() {
        return user;
    }

    /** The item index of every rating (not a copy). */
    public int[] itemArray() {
        return item;
    }

    /** The values (not a copy). */
    public float[] valueArray() {
        return value;
    }

    /** The id a file gave user {@code u}, or its index when the ratings came without ids. */
    public String userId(int u) {
        return userIds == null ? Integer.toString(u) : userIds[u];
    }

    /** The id a file gave item {@code i}, or its index. */
    public String itemId(int i) {
        return itemIds == null ? Integer.toString(i) : itemIds[i];
    }

    /** Whether the ratings keep the original ids of a file. */
    public boolean hasIds() {
        return userIds != null;
    }

    /** The dense index of the user a file called {@code id}, or -1. */
    public int userIndex(String id) {
        if (userIds == null) return parseIndex(id, users);
        for (int u = 0; u < users; u++) if (userIds[u].equals(id)) return u;
        return -1;
    }

    private static int parseIndex(String id, int n) {
        try {
            int v = Integer.parseInt(id.strip());
            return v >= 0 && v < n ? v : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Mean of the values in double (0 for no ratings). */
    public double mean() {
        double s = 0;
        for (float v : value) s += v;
        return value.length == 0 ? 0 : s / value.length;
    }

    /** Ratings per user. */
    public int[] userDegrees() {
        int[] d = new int[users];
        for (int u : user) d[u]++;
        return d;
    }

    /** Ratings per item. */
    public int[] itemDegrees() {
        int[] d = new int[items];
        for (int i : item) d[i]++;
        return d;
    }

    /** Number of users with no rating. */
    public int emptyUsers() {
        return (int) Arrays.stream(userDegrees()).filter(d -> d == 0).count();
    }

    /** Number of items with no rating. */
    public int emptyItems() {
        return (int) Arrays.stream(itemDegrees()).filter(d -> d == 0).count();
    }

    /** The ratings {@code idx} (in that order), same users, items and ids. */
    public Ratings select(int[] idx) {
        int[] u = new int[idx.length];
        int[] i = new int[idx.length];
        float[] v = new float[idx.length];
        for (int t = 0; t < idx.length; t++) {
            u[t] = user[idx[t]];
            i[t] = item[idx[t]];
            v[t] = value[idx[t]];
        }
        return new Ratings(users, items, u, i, v, userIds, itemIds);
    }

    /** A training set and a test set over the same users and items. */
    public record Split(Ratings train, Ratings test) {
    }

    /**
     * A seeded split: each rating goes to the test set with probability {@code testFraction}, except that a user's or
     * item's only remaining rating stays in training (so no one is known from the test set alone, as far as the
     * order of the draws allows). The same seed gives the same split.
     */
    public Split split(double testFraction, long seed) {
        if (!(testFraction >= 0 && testFraction < 1)) throw new IllegalArgumentException("test fraction " + testFraction + " must be in [0, 1)");
        int[] du = userDegrees();
        int[] di = itemDegrees();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        int[] train = new int[size()];
        int[] test = new int[size()];
        int nt = 0;
        int ns = 0;
        for (int e = 0; e < size(); e++) {
            boolean toTest = rnd.nextDouble() < testFraction && du[user[e]] > 1 && di[item[e]] > 1;
            if (toTest) {
                test[ns++] = e;
                du[user[e]]--;
                di[item[e]]--;
            } else {
                train[nt++] = e;
            }
        }
        return new Split(select(Arrays.copyOf(train, nt)), select(Arrays.copyOf(test, ns)));
    }

    @Override
    public String toString() {
        return users + " users x " + items + " items, " + size() + " ratings";
    }
}
