package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.DoubleFunction;

/**
 * A real matrix as an integer matrix times an exact rational factor: each row is multiplied by
 * the power of ten that makes its entries integers, then divided by the gcd of those integers,
 * so {@code perm(A) = perm(rows) * numerator / denominator} exactly (the permanent is linear in
 * each row).
 * <ul>
 * <li>{@link #ofDecimals}: every entry read as the shortest decimal that rounds to its double
 * ({@link Double#toString}) — the Matrix Market literal itself whenever it has at most 15
 * significant digits, since such decimals survive the round trip through a double;</li>
 * <li>{@link #ofBinary}: every entry's exact binary value — the matrix the floating-point paths
 * compute with.</li>
 * </ul>
 *
 * <pre>{@code
 * IntegerScaling s = IntegerScaling.ofDecimals(a);    // 0.25 -> 1 with factor 1/4
 * }</pre>
 *
 * @param rows        the integer matrix, row-major {@code rows[i][j]}
 * @param numerator   product of the rows' gcds
 * @param denominator product of the rows' powers of ten
 */
public record IntegerScaling(BigInteger[][] rows, BigInteger numerator, BigInteger denominator) {
    public static IntegerScaling ofDecimals(SquareMatrix a) {
        return of(a, v -> new BigDecimal(Double.toString(v)));
    }

    /**
     * Rows multiplied by powers of two only (no gcd taken), so an integer row converts back to the
     * original doubles times a power of two without rounding.
     */
    public static IntegerScaling ofBinary(SquareMatrix a) {
        int n = a.n();
        BigInteger[][] m = new BigInteger[n][n];
        long shift = 0;
        for (int i = 0; i < n; i++) {
            int low = Integer.MAX_VALUE;
            for (int j = 0; j < n; j++) {
                double v = a.get(i, j);
                if (v != 0) low = Math.min(low, lowestBitExponent(v));
            }
            for (int j = 0; j < n; j++) {
                double v = a.get(i, j);
                if (v == 0) {
                    m[i][j] = BigInteger.ZERO;
                    continue;
                }
                int e = lowestBitExponent(v);
                long mant = (long) Math.scalb(Math.abs(v), -e); // odd, < 2^53
                BigInteger b = BigInteger.valueOf(mant).shiftLeft(e - low);
                m[i][j] = v < 0 ? b.negate() : b;
            }
            if (low != Integer.MAX_VALUE) shift += low;
        }
        // perm(A) = perm(m) * 2^shift
        return shift >= 0 ? new IntegerScaling(m, BigInteger.ONE.shiftLeft((int) shift), BigInteger.ONE)
                : new IntegerScaling(m, BigInteger.ONE, BigInteger.ONE.shiftLeft((int) -shift));
    }

    /** The exponent of the lowest set bit of a nonzero finite double: v = odd * 2^e. */
    static int lowestBitExponent(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int exp = (int) ((bits >>> 52) & 0x7ff);
        long mant = bits & ((1L << 52) - 1);
        if (exp != 0) mant |= 1L << 52;
        int e = (exp == 0 ? 1 : exp) - 1075;
        return e + Long.numberOfTrailingZeros(mant);
    }

    private static IntegerScaling of(SquareMatrix a, DoubleFunction<BigDecimal> exact) {
        int n = a.n();
        BigInteger[][] m = new BigInteger[n][n];
        BigInteger num = BigInteger.ONE, den = BigInteger.ONE;
        for (int i = 0; i < n; i++) {
            BigDecimal[] row = new BigDecimal[n];
            int scale = Integer.MIN_VALUE;
            for (int j = 0; j < n; j++) {
                double v = a.get(i, j);
                row[j] = v == 0 ? BigDecimal.ZERO : exact.apply(v).stripTrailingZeros();
                if (v != 0) scale = Math.max(scale, row[j].scale());
            }
            if (scale == Integer.MIN_VALUE) { // an empty row: the permanent is 0, the integers too
                for (int j = 0; j < n; j++) m[i][j] = BigInteger.ZERO;
                continue;
            }
            BigInteger g = BigInteger.ZERO;
            for (int j = 0; j < n; j++) {
                m[i][j] = row[j].signum() == 0 ? BigInteger.ZERO : row[j].scaleByPowerOfTen(scale).toBigIntegerExact();
                g = g.gcd(m[i][j]);
            }
            for (int j = 0; j < n; j++) m[i][j] = m[i][j].divide(g);
            num = num.multiply(g);
            if (scale >= 0) den = den.multiply(BigInteger.TEN.pow(scale));
            else num = num.multiply(BigInteger.TEN.pow(-scale));
        }
        BigInteger d = num.gcd(den);
        return new IntegerScaling(m, num.divide(d), den.divide(d));
    }
}
