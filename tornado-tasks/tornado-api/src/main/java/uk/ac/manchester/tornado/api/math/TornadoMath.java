package uk.ac.manchester.tornado.api.math;

/**
 * Maths for kernels in the arguments' precision: the float overloads compute in float on devices (C's float functions),
 * the double ones in double. On the JVM they are Java's {@code Math}, rounded to float where the argument is float.
 */
public final class TornadoMath {
    private TornadoMath() {
    }

    public static float sqrt(float x) {
        return (float) Math.sqrt(x);
    }

    public static double sqrt(double x) {
        return Math.sqrt(x);
    }

    public static float exp(float x) {
        return (float) Math.exp(x);
    }

    public static double exp(double x) {
        return Math.exp(x);
    }

    public static float log(float x) {
        return (float) Math.log(x);
    }

    public static double log(double x) {
        return Math.log(x);
    }

    public static float sin(float x) {
        return (float) Math.sin(x);
    }

    public static double sin(double x) {
        return Math.sin(x);
    }

    public static float cos(float x) {
        return (float) Math.cos(x);
    }

    public static double cos(double x) {
        return Math.cos(x);
    }

    public static float tan(float x) {
        return (float) Math.tan(x);
    }

    public static double tan(double x) {
        return Math.tan(x);
    }

    public static float asin(float x) {
        return (float) Math.asin(x);
    }

    public static double asin(double x) {
        return Math.asin(x);
    }

    public static float acos(float x) {
        return (float) Math.acos(x);
    }

    public static double acos(double x) {
        return Math.acos(x);
    }

    public static float atan(float x) {
        return (float) Math.atan(x);
    }

    public static double atan(double x) {
        return Math.atan(x);
    }

    public static float sinh(float x) {
        return (float) Math.sinh(x);
    }

    public static double sinh(double x) {
        return Math.sinh(x);
    }

    public static float cosh(float x) {
        return (float) Math.cosh(x);
    }

    public static double cosh(double x) {
        return Math.cosh(x);
    }

    public static float tanh(float x) {
        return (float) Math.tanh(x);
    }

    public static double tanh(double x) {
        return Math.tanh(x);
    }

    public static float floor(float x) {
        return (float) Math.floor(x);
    }

    public static double floor(double x) {
        return Math.floor(x);
    }

    public static float ceil(float x) {
        return (float) Math.ceil(x);
    }

    public static double ceil(double x) {
        return Math.ceil(x);
    }

    public static float abs(float x) {
        return (float) Math.abs(x);
    }

    public static double abs(double x) {
        return Math.abs(x);
    }

    public static float log10(float x) {
        return (float) Math.log10(x);
    }

    public static double log10(double x) {
        return Math.log10(x);
    }

    public static float cbrt(float x) {
        return (float) Math.cbrt(x);
    }

    public static double cbrt(double x) {
        return Math.cbrt(x);
    }

    public static float expm1(float x) {
        return (float) Math.expm1(x);
    }

    public static double expm1(double x) {
        return Math.expm1(x);
    }

    public static float log1p(float x) {
        return (float) Math.log1p(x);
    }

    public static double log1p(double x) {
        return Math.log1p(x);
    }

    public static float signum(float x) {
        return (float) Math.signum(x);
    }

    public static double signum(double x) {
        return Math.signum(x);
    }

    public static float rint(float x) {
        return (float) Math.rint(x);
    }

    public static double rint(double x) {
        return Math.rint(x);
    }

    public static float min(float a, float b) {
        return Math.min(a, b);
    }

    public static double min(double a, double b) {
        return Math.min(a, b);
    }

    public static int min(int a, int b) {
        return Math.min(a, b);
    }

    public static long min(long a, long b) {
        return Math.min(a, b);
    }

    public static float max(float a, float b) {
        return Math.max(a, b);
    }

    public static double max(double a, double b) {
        return Math.max(a, b);
    }

    public static int max(int a, int b) {
        return Math.max(a, b);
    }

    public static long max(long a, long b) {
        return Math.max(a, b);
    }

    public static int abs(int x) {
        return Math.abs(x);
    }

    public static long abs(long x) {
        return Math.abs(x);
    }

    public static float pow(float a, float b) {
        return (float) Math.pow(a, b);
    }

    public static double pow(double a, double b) {
        return Math.pow(a, b);
    }

    public static float atan2(float a, float b) {
        return (float) Math.atan2(a, b);
    }

    public static double atan2(double a, double b) {
        return Math.atan2(a, b);
    }

    public static float hypot(float a, float b) {
        return (float) Math.hypot(a, b);
    }

    public static double hypot(double a, double b) {
        return Math.hypot(a, b);
    }

    public static float fma(float a, float b, float c) {
        return Math.fma(a, b, c);
    }

    public static double fma(double a, double b, double c) {
        return Math.fma(a, b, c);
    }

    /** {@code x} limited to {@code [lo, hi]}. */
    public static float clamp(float x, float lo, float hi) {
        return Math.min(Math.max(x, lo), hi);
    }

    public static double clamp(double x, double lo, double hi) {
        return Math.min(Math.max(x, lo), hi);
    }

    public static int clamp(int x, int lo, int hi) {
        return Math.min(Math.max(x, lo), hi);
    }

    public static long clamp(long x, long lo, long hi) {
        return Math.min(Math.max(x, lo), hi);
    }

    public static float log2(float x) {
        return (float) (Math.log(x) / Math.log(2));
    }

    public static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    public static float exp2(float x) {
        return (float) Math.pow(2, x);
    }

    public static double exp2(double x) {
        return Math.pow(2, x);
    }
}
