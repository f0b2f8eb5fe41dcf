package dev.squall.bench.suite;

/**
 * A workload's verification: the error of the device result against a plain-Java reference, the tolerance it must
 * meet, and what it was compared with.
 *
 * @param error     the error (relative unless {@code against} says otherwise); NaN or infinite when the result held NaN
 * @param tolerance the largest error accepted
 * @param against   the reference and the measure of error, in words
 */
public record Check(double error, double tolerance, String against) {
    /** The error is a number within the tolerance. */
    public boolean ok() {
        return error <= tolerance;
    }

    /** Relative 2-norm error of {@code got} against {@code want} (a NaN in {@code got} makes it infinite). */
    public static double relativeError(double[] got, double[] want) {
        double num = 0, den = 0;
        for (int i = 0; i < want.length; i++) {
            double d = got[i] - want[i];
            num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
            den += want[i] * want[i];
        }
        return den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
    }
}
