package dev.squall.cli;

/**
 * Size arithmetic where a user's numbers meet {@code int} and {@code long}: products that cannot overflow silently and
 * limits checked with the options named, so {@code --n 2147483647 --batch 3} is bad input, not an ArithmeticException.
 */
public final class Sizes {
    /** Most elements one off-heap array indexed by {@code int} holds. */
    public static final long MAX_INT_ELEMENTS = Integer.MAX_VALUE;

    private Sizes() {
    }

    /**
     * The product of {@code factors}, or bad input naming {@code what} (for example {@code "--batch x --n^2"}) when it
     * exceeds {@code Long.MAX_VALUE}. Factors must be non-negative.
     */
    public static long product(String what, long... factors) {
        long p = 1;
        for (long f : factors) {
            if (f < 0) throw new IllegalArgumentException(what + ": negative size " + f);
            try {
                p = Math.multiplyExact(p, f);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(what + " is too large (" + describe(factors) + " overflows 64 bits)");
            }
        }
        return p;
    }

    /** The product of {@code factors}, or bad input naming {@code what} when it exceeds {@code limit}. */
    public static long atMost(String what, long limit, long... factors) {
        long p = product(what, factors);
        if (p > limit) throw new IllegalArgumentException(what + " = " + describe(factors) + " = " + p + " exceeds " + limit);
        return p;
    }

    /** The product of {@code factors} as an int element count, or bad input naming {@code what} past 2^31 - 1. */
    public static int intElements(String what, long... factors) {
        long p = product(what, factors);
        if (p > MAX_INT_ELEMENTS) throw new IllegalArgumentException(what + " = " + describe(factors) + " = " + p + " elements exceeds 2^31 - 1 (int indexing)");
        return (int) p;
    }

    /** Bad input naming {@code option} unless {@code lo <= value <= hi}. */
    public static int inRange(String option, int value, int lo, int hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(option + " " + value + ": must be " + (hi == Integer.MAX_VALUE ? "at least " + lo : lo + ".." + hi));
        }
        return value;
    }

    private static String describe(long... factors) {
        StringBuilder b = new StringBuilder();
        for (long f : factors) b.append(b.isEmpty() ? "" : " x ").append(f);
        return b.toString();
    }
}
