package dev.squall.permanent.exact;

import dev.squall.permanent.numeric.ScaledValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * An exact rational number in lowest terms with a positive denominator.
 *
 * <pre>{@code
 * Fraction f = Fraction.of(BigInteger.valueOf(6), BigInteger.valueOf(-4));   // -3/2
 * }</pre>
 */
public record Fraction(BigInteger numerator, BigInteger denominator) {
    public static Fraction of(BigInteger num, BigInteger den) {
        if (den.signum() == 0) throw new ArithmeticException("denominator is zero");
        if (den.signum() < 0) {
            num = num.negate();
            den = den.negate();
        }
        BigInteger g = num.gcd(den);
        if (g.signum() != 0 && !g.equals(BigInteger.ONE)) {
            num = num.divide(g);
            den = den.divide(g);
        }
        return new Fraction(num, den);
    }

    public boolean isInteger() {
        return denominator.equals(BigInteger.ONE);
    }

    /** The value as mantissa * 2^exponent, correctly rounded to about 1 ulp even far beyond the double range. */
    public ScaledValue toScaled() {
        if (numerator.signum() == 0) return ScaledValue.ZERO;
        // shift so the quotient has ~64 significant bits, then divide in BigInteger
        long shift = 64L - (numerator.bitLength() - denominator.bitLength());
        BigInteger q = shift >= 0 ? numerator.shiftLeft((int) shift).divide(denominator) : numerator.divide(denominator.shiftLeft((int) -shift));
        return ScaledValue.of(q.doubleValue(), -shift);
    }

    /** Decimal text: the integer, or {@code p/q} followed by a 20-digit decimal approximation. */
    public String toText() {
        if (isInteger()) return numerator.toString();
        return numerator + "/" + denominator + " (" + new BigDecimal(numerator).divide(new BigDecimal(denominator), new MathContext(20)) + ")";
    }
}
