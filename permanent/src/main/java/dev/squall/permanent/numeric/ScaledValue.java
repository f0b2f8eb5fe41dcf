package dev.squall.permanent.numeric;

/**
 * A real number {@code mantissa * 2^exponent} with a long exponent, so products of block
 * permanents and scaling factors cannot overflow or underflow on the way; {@link #toDouble()}
 * says {@code ±Infinity} (or 0) only at the very end, when the value leaves the double range.
 *
 * <pre>{@code
 * ScaledValue v = ScaledValue.of(3.0).times(ScaledValue.of(1e300)).times(ScaledValue.of(1e300));
 * v.toDouble();     // Infinity: outside the double range
 * v.log10Abs();     // 600.477...
 * }</pre>
 */
public record ScaledValue(double mantissa, long exponent) {
    public static final ScaledValue ONE = new ScaledValue(1, 0);
    public static final ScaledValue ZERO = new ScaledValue(0, 0);

    public static ScaledValue of(double v) {
        return of(v, 0);
    }

    /** {@code v * 2^exp}, normalised so the mantissa's magnitude is in [1, 2). */
    public static ScaledValue of(double v, long exp) {
        if (v == 0) return ZERO;
        if (!Double.isFinite(v)) throw new IllegalArgumentException("not finite: " + v);
        int e = Math.getExponent(v);
        if (e < Double.MIN_EXPONENT) { // subnormal: normalise first
            v *= 0x1p64;
            exp -= 64;
            e = Math.getExponent(v);
        }
        return new ScaledValue(Math.scalb(v, -e), exp + e);
    }

    public ScaledValue times(ScaledValue o) {
        return of(mantissa * o.mantissa, exponent + o.exponent);
    }

    /** The sum, rounded once in the larger operand's scale (the smaller one is lost below 2^-1100 of it). */
    public ScaledValue plus(ScaledValue o) {
        if (o.isZero()) return this;
        if (isZero()) return o;
        long e = Math.max(exponent, o.exponent);
        return of(Math.scalb(mantissa, (int) Math.max(-1100, exponent - e)) + Math.scalb(o.mantissa, (int) Math.max(-1100, o.exponent - e)), e);
    }

    /** The magnitude. */
    public ScaledValue abs() {
        return new ScaledValue(Math.abs(mantissa), exponent);
    }

    public boolean isZero() {
        return mantissa == 0;
    }

    /** The value as a double: ±Infinity above the double range, 0 below it. */
    public double toDouble() {
        if (mantissa == 0) return 0;
        if (exponent > Double.MAX_EXPONENT + 1) return Math.copySign(Double.POSITIVE_INFINITY, mantissa);
        if (exponent < Double.MIN_EXPONENT - 60) return Math.copySign(0.0, mantissa);
        return Math.scalb(mantissa, (int) exponent);
    }

    /** Whether {@link #toDouble()} loses the value (overflow to infinity or underflow to zero). */
    public boolean outsideDoubleRange() {
        double d = toDouble();
        return mantissa != 0 && (Double.isInfinite(d) || d == 0 || Math.abs(d) < Double.MIN_NORMAL);
    }

    /** {@code log10 |value|} (-Infinity for zero); finite even when the double overflows. */
    public double log10Abs() {
        if (mantissa == 0) return Double.NEGATIVE_INFINITY;
        return Math.log10(Math.abs(mantissa)) + exponent * Math.log10(2);
    }

    /** "1.234567e+400" style text that works beyond the double range. */
    public String toText() {
        if (mantissa == 0) return "0";
        if (!outsideDoubleRange()) return Double.toString(toDouble());
        double l = log10Abs();
        long e10 = (long) Math.floor(l);
        double m10 = Math.pow(10, l - e10);
        return (mantissa < 0 ? "-" : "") + String.format(java.util.Locale.ROOT, "%.15fe%+d", m10, e10);
    }
}
