package dev.squall.permanent.frontier;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.ScaledValue;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The permanent by a row-by-row dynamic program over the set of open columns already matched
 * ({@link FrontierPlan}): after row {@code i} a state is the set {@code S} of open columns used by
 * rows {@code 0..i}, its value the sum over the partial matchings of those rows onto the
 * closed-and-used columns plus {@code S} of the products of their entries. A row extends every
 * state by each of its nonzeros whose column is free; a column that closes must be used, so states
 * without it are dropped. The final state's value is the permanent. It sums only actual
 * matchings — no inclusion–exclusion, so none of Ryser's cancellation between terms far larger
 * than the result.
 * <ul>
 * <li>{@link #inDouble}: the value, and beside it the same program on {@code |A|}, whose sums
 * have no cancellation at all, for the rigorous bound
 * {@code |computed - perm(A)| <= gamma_k perm(|A|)} with {@code k = sum_i (1 + deg_i)} roundings
 * along any matching (one product and at most {@code deg_i} additions per row; Higham's
 * {@code gamma_k = k u / (1 - k u)}). States are rescaled by a power of two after every row so
 * nothing overflows; underflow below 2^-1022 of the largest state is not counted.</li>
 * <li>{@link #exact}: the same program over BigInteger for an integer matrix.</li>
 * </ul>
 *
 * <pre>{@code
 * FrontierPermanent.Result r = FrontierPermanent.inDouble(FrontierPlan.of(a));
 * BigInteger p = FrontierPermanent.exact(FrontierPlan.of(a), integerRows);
 * }</pre>
 */
public final class FrontierPermanent {
    /** A double-precision result: {@code value} with {@code |value - perm| <= bound}, and {@code perm(|A|)} as computed. */
    public record Result(ScaledValue value, ScaledValue bound, ScaledValue absPermanent, long stateUpdates) {
    }

    private FrontierPermanent() {
    }

    public static Result inDouble(FrontierPlan plan) {
        SquareMatrix m = plan.matrix();
        int n = m.n();
        double[][] entries = new double[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) entries[i][j] = m.get(i, j);
        double[][] v = {{1.0}, {1.0}}; // value and |A| companion per state
        long[] exponent = {0};
        long[] updates = {0};
        Walk.run(m, plan.width(), new Walk.Values() {
            @Override
            public void step(int row, int[] from, int[] to, int[] col, int count, int nextSize) {
                double[] nv = new double[nextSize], na = new double[nextSize];
                double[] cv = v[0], ca = v[1];
                for (int t = 0; t < count; t++) {
                    double e = entries[row][col[t]];
                    nv[to[t]] += cv[from[t]] * e;
                    na[to[t]] += ca[from[t]] * Math.abs(e);
                }
                updates[0] += count;
                double max = 0;
                for (double x : na) max = Math.max(max, x);
                if (max > 0) {
                    int e = Math.getExponent(max);
                    for (int s = 0; s < nextSize; s++) {
                        nv[s] = Math.scalb(nv[s], -e);
                        na[s] = Math.scalb(na[s], -e);
                    }
                    exponent[0] += e;
                }
                v[0] = nv;
                v[1] = na;
            }

            @Override
            public void keep(int[] keepIndex, int newSize) {
                v[0] = compact(v[0], keepIndex, newSize);
                v[1] = compact(v[1], keepIndex, newSize);
            }
        });
        double value = v[0].length == 0 ? 0 : v[0][0], abs = v[1].length == 0 ? 0 : v[1][0];
        long k = n;
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (entries[i][j] != 0) k++;
        double u = 0x1p-53, gamma = k * u / (1 - k * u);
        double bound = gamma * abs / (1 - gamma);
        return new Result(ScaledValue.of(value, exponent[0]), ScaledValue.of(bound, exponent[0]), ScaledValue.of(abs, exponent[0]), updates[0]);
    }

    /** The exact permanent of an integer matrix, arranged as the plan says (the plan was made from its pattern). */
    public static BigInteger exact(FrontierPlan plan, BigInteger[][] integerRows) {
        BigInteger[][] m = plan.arrange(integerRows, k -> new BigInteger[k][k]);
        BigInteger[][] v = {{BigInteger.ONE}};
        Walk.run(plan.matrix(), plan.width(), new Walk.Values() {
            @Override
            public void step(int row, int[] from, int[] to, int[] col, int count, int nextSize) {
                BigInteger[] nv = new BigInteger[nextSize];
                Arrays.fill(nv, BigInteger.ZERO);
                BigInteger[] cv = v[0];
                for (int t = 0; t < count; t++) nv[to[t]] = nv[to[t]].add(cv[from[t]].multiply(m[row][col[t]]));
                v[0] = nv;
            }

            @Override
            public void keep(int[] keepIndex, int newSize) {
                BigInteger[] out = new BigInteger[newSize];
                for (int s = 0; s < keepIndex.length; s++) if (keepIndex[s] >= 0) out[keepIndex[s]] = v[0][s];
                v[0] = out;
            }
        });
        return v[0].length == 0 ? BigInteger.ZERO : v[0][0];
    }

    private static double[] compact(double[] a, int[] keepIndex, int newSize) {
        double[] out = new double[newSize];
        for (int s = 0; s < keepIndex.length; s++) if (keepIndex[s] >= 0) out[keepIndex[s]] = a[s];
        return out;
    }

    /** The state walk shared by the value types: which state goes to which through which entry. */
    static final class Walk {
        interface Values {
            /** Row {@code row}: state {@code to[t]} of the next table gains state {@code from[t]} times entry (row, col[t]). */
            void step(int row, int[] from, int[] to, int[] col, int count, int nextSize);

            /** Closing columns: state s moves to {@code keepIndex[s]}, or is dropped where that is -1. */
            void keep(int[] keepIndex, int newSize);
        }

        static void run(SquareMatrix m, int width, Values values) {
            int n = m.n();
            if (width > FrontierPlan.MAX_WIDTH) {
                throw new IllegalArgumentException("frontier width " + width + " exceeds " + FrontierPlan.MAX_WIDTH + ": the program would need 2^" + width + " states");
            }
            FrontierPlan.ColumnSpans spans = FrontierPlan.ColumnSpans.of(m);
            int[] first = spans.first(), last = spans.last();
            int[] slot = new int[n];
            long freeSlots = width >= 64 ? -1L : (1L << width) - 1;
            long[] keys = {0L};
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (first[j] == i) {
                        int s = Long.numberOfTrailingZeros(freeSlots);
                        freeSlots &= ~(1L << s);
                        slot[j] = s;
                    }
                }
                int deg = 0;
                int[] cols = new int[n];
                for (int j = 0; j < n; j++) if (m.get(i, j) != 0) cols[deg++] = j;
                int cap = Math.max(1, keys.length * deg);
                int[] from = new int[cap], to = new int[cap], col = new int[cap];
                LongIndex next = new LongIndex(Math.max(16, keys.length * 2));
                int count = 0;
                for (int s = 0; s < keys.length; s++) {
                    long key = keys[s];
                    for (int d = 0; d < deg; d++) {
                        long bit = 1L << slot[cols[d]];
                        if ((key & bit) != 0) continue;
                        from[count] = s;
                        to[count] = next.indexOf(key | bit);
                        col[count++] = cols[d];
                    }
                }
                values.step(i, from, to, col, count, next.size());
                keys = next.keys();
                long closing = 0;
                for (int j = 0; j < n; j++) if (last[j] == i) closing |= 1L << slot[j];
                if (closing != 0) {
                    int[] keep = new int[keys.length];
                    int kept = 0;
                    for (int s = 0; s < keys.length; s++) keep[s] = (keys[s] & closing) == closing ? kept++ : -1;
                    long[] nk = new long[kept];
                    for (int s = 0; s < keys.length; s++) if (keep[s] >= 0) nk[keep[s]] = keys[s] & ~closing;
                    keys = nk;
                    freeSlots |= closing;
                    values.keep(keep, kept);
                }
                if (keys.length == 0) return; // no matching survives: the permanent is 0
            }
        }
    }

    /** Open-addressing map from state masks to dense indices, in insertion order. */
    static final class LongIndex {
        private long[] table;
        private int[] index;
        private long[] keys;
        private int size;

        LongIndex(int expected) {
            int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
            table = new long[cap];
            index = new int[cap];
            Arrays.fill(index, -1);
            keys = new long[Math.max(4, expected)];
        }

        int indexOf(long key) {
            int mask = table.length - 1;
            int h = (int) (mix(key) & mask);
            while (index[h] >= 0) {
                if (table[h] == key) return index[h];
                h = (h + 1) & mask;
            }
            if (keys.length == size) keys = Arrays.copyOf(keys, size * 2);
            keys[size] = key;
            table[h] = key;
            index[h] = size;
            if (++size * 2 > table.length) grow();
            return size - 1;
        }

        private void grow() {
            long[] t = new long[table.length * 2];
            int[] ix = new int[t.length];
            Arrays.fill(ix, -1);
            int mask = t.length - 1;
            for (int s = 0; s < size; s++) {
                int h = (int) (mix(keys[s]) & mask);
                while (ix[h] >= 0) h = (h + 1) & mask;
                t[h] = keys[s];
                ix[h] = s;
            }
            table = t;
            index = ix;
        }

        private static long mix(long k) {
            k ^= k >>> 33;
            k *= 0xff51afd7ed558ccdL;
            k ^= k >>> 33;
            return k;
        }

        int size() {
            return size;
        }

        long[] keys() {
            return Arrays.copyOf(keys, size);
        }
    }
}
