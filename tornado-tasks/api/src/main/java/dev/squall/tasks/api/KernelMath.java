package dev.squall.tasks.api;

/**
 * Single-precision maths and explicit fast variants for kernels. {@code Math.*} always
 * computes in double, as Java does; these keep fp32 kernels in fp32. The {@code fast*}
 * functions trade accuracy for speed (CUDA {@code __expf}, OpenCL {@code native_exp}); on the
 * JVM they are the ordinary functions. Opt in only where a few ulp of error are acceptable.
 *
 * <pre>{@code float g = KernelMath.fastExp(-d2 * invTwoSigma2); }</pre>
 */
public final class KernelMath {
    private KernelMath() {
    }

    public static float sqrt(float x) { return (float) Math.sqrt(x); }
    public static float exp(float x) { return (float) Math.exp(x); }
    public static float log(float x) { return (float) Math.log(x); }
    public static float sin(float x) { return (float) Math.sin(x); }
    public static float cos(float x) { return (float) Math.cos(x); }
    public static float pow(float x, float y) { return (float) Math.pow(x, y); }
    public static float rsqrt(float x) { return (float) (1.0 / Math.sqrt(x)); }
    public static double rsqrt(double x) { return 1.0 / Math.sqrt(x); }
    public static float fma(float a, float b, float c) { return Math.fma(a, b, c); }
    public static double fma(double a, double b, double c) { return Math.fma(a, b, c); }

    public static float fastExp(float x) { return (float) Math.exp(x); }
    /**
     * {@code 2^x} by the hardware exponential: on CUDA one {@code ex2.approx.ftz.f32} (relative error about
     * {@code 2^-22}, results below {@code 2^-126} flushed to zero), on OpenCL {@code native_exp2}; on the JVM exact.
     */
    public static float fastExp2(float x) { return (float) Math.pow(2.0, x); }
    public static float fastLog(float x) { return (float) Math.log(x); }
    public static float fastSin(float x) { return (float) Math.sin(x); }
    public static float fastCos(float x) { return (float) Math.cos(x); }
    public static float fastSqrt(float x) { return (float) Math.sqrt(x); }
    public static float fastRsqrt(float x) { return (float) (1.0 / Math.sqrt(x)); }
    public static float fastDivide(float a, float b) { return a / b; }
}
