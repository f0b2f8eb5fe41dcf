package dev.squall.tasks.runtime.conformance;

/**
 * Plain sequential Java for what each conformance kernel computes, written without looking at
 * the kernels' code paths (no KernelContext, no Squall arrays), so a translation bug cannot be
 * copied into the expected values.
 */
final class ConformanceReference {
    private ConformanceReference() {
    }

    static double[] polyMap(double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            y[i] = 1.0 + 0.5 * v + 0.25 * v * v - 0.125 * v * v * v;
        }
        return y;
    }

    static float[] floatMath(float[] x) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            y[i] = (float) (Math.sqrt(v) + Math.exp(-v) * Math.cos(v) - Math.log(1 + v) / (2 + Math.sin(v))
                    + Math.pow(v, 1.5) + (v * v + 0.5) + 1 / Math.sqrt(v + 1));
        }
        return y;
    }

    static double[] doubleMath(double[] x) {
        double[] out = new double[x.length * 24];
        for (int i = 0; i < x.length; i++) {
            double v = x[i], a = Math.abs(v) + 0.5;
            double[] r = {
                    StrictMath.sqrt(a), StrictMath.cbrt(v), StrictMath.exp(v), StrictMath.expm1(v), StrictMath.log(a),
                    StrictMath.log1p(a), StrictMath.log10(a), StrictMath.sin(v) + StrictMath.cos(v) + StrictMath.tan(v),
                    StrictMath.asin(v) + StrictMath.acos(v) + StrictMath.atan(v), StrictMath.atan2(v, a),
                    StrictMath.sinh(v) + StrictMath.cosh(v) + StrictMath.tanh(v), StrictMath.pow(a, v), StrictMath.hypot(v, a),
                    StrictMath.floor(v * 10) + StrictMath.ceil(v * 10) + StrictMath.rint(v * 10), StrictMath.floor(v * 10 + 0.5),
                    (v > 0 ? 1 : v < 0 ? -1 : 0) + (v < 0 ? -a : a), v * a + v, (v < a ? v : a) + (v > -a ? v : -a),
                    (v < 0 ? -v : v) + 3.141592653589793 + 2.718281828459045, v % 0.3, -v,
                    (i < 7 ? i : 7) + (i > 3 ? i : 3) + i + 3, StrictMath.floor((float) v * 10f + 0.5f), 1.0};
            System.arraycopy(r, 0, out, i * 24, 24);
        }
        return out;
    }

    static long[] bits(int[] a, long[] b) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            int x = a[i];
            long y = b[i];
            int s = i % 70;
            long r = pop(x & 0xffffffffL) + 3L * pop(y) + 7L * tz(x & 0xffffffffL, 32) + 11L * tz(y, 64)
                    + 13L * lz(x & 0xffffffffL, 32) + 17L * lz(y, 64);
            long lowest = x == 0 ? 0 : (long) (x & -x);
            long highest = y == 0 ? 0 : (y < 0 ? Long.MIN_VALUE : 1L << (63 - lz(y, 64)));
            int sm = s & 31, lm = s & 63;
            int rotl = sm == 0 ? x : (x << sm) | (x >>> (32 - sm));
            long rotr = lm == 0 ? y : (y >>> lm) | (y << (64 - lm));
            r ^= lowest ^ highest ^ (long) rotl ^ rotr;
            r += (long) ((x << sm) + (x >> sm) + (int) ((x & 0xffffffffL) >>> sm)) + (y << lm) + (y >> lm) + (y >>> lm);
            int div = s - 35 == 0 ? 1 : s - 35;
            r += x / (s + 1) + x % div + y / 7 + y % -13;
            float bitsAsFloat = Float.intBitsToFloat(x & 0x3fffffff);
            r += (float) ((long) Float.floatToRawIntBits((float) x)) + bitsAsFloat > 1f ? 1 : 0;
            r += (short) x + (byte) y + (int) y;
            r += -1 + 8;
            out[i] = r;
        }
        return out;
    }

    private static long pop(long v) {
        long c = 0;
        for (int k = 0; k < 64; k++) c += (v >>> k) & 1;
        return c;
    }

    private static long tz(long v, int width) {
        for (int k = 0; k < width; k++) if (((v >>> k) & 1) != 0) return k;
        return width;
    }

    private static long lz(long v, int width) {
        for (int k = width - 1; k >= 0; k--) if (((v >>> k) & 1) != 0) return width - 1 - k;
        return width;
    }

    static double[] matmul(double[] a, double[] b, int m, int n, int k) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];
                c[i * n + j] = s;
            }
        return c;
    }

    static long[] grid3(int nx, int ny, int nz) {
        long[] out = new long[nx * ny * nz];
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    long id = ((long) z * ny + y) * nx + x;
                    out[(int) id] = id * 1_000_003L + x - 2L * y + 3L * z;
                }
        return out;
    }

    /** Returns {out, flags, shorts} for the control kernel. */
    static int[][] control(int[] in, boolean negate) {
        int n = in.length;
        int[] out = new int[n], flags = new int[n], shorts = new int[n];
        double[] w = {0.5, 1.5, 2.5};
        for (int i = 0; i < n; i++) {
            int v = in[i];
            int acc = (v & 3) == 0 ? 10 : (v & 3) == 1 ? 20 : -5;
            int[] hist = new int[5];
            for (int j = 1; j <= 40; j++) {
                if (j % 3 == 0) continue;
                if (j > (v & 31)) break;
                hist[j % 5] += j;
            }
            int d = 2;
            while (d < (v & 7)) d += 2;
            for (int q = 0; q < 5; q++) acc += hist[q] * (q + 1);
            long c = (v & 255) | 1;
            int steps = 0;
            while (c != 1 && steps < 500) {
                c = c % 2 == 0 ? c / 2 : 3 * c + 1;
                steps++;
            }
            acc += (int) (w[v & 1] * 4) + d + steps;
            boolean big = (v > 1000 && v <= 5000) || v < -1000;
            if (big) acc *= 2;
            if (negate) acc = -acc;
            out[i] = acc;
            flags[i] = big ? 1 : 0;
            shorts[i] = acc & 0x7fff;
        }
        return new int[][] {out, flags, shorts};
    }

    static float[] longIndex(float[] x, long offset) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i++) y[i] = x[i] * 2f + (float) ((i + offset) % 1000);
        return y;
    }

    static float[] stencil(float[] x, int[] w, long[] o) {
        int n = x.length;
        float[] y = new float[n];
        for (int g = 0; g < n; g++) {
            float left = g > 0 ? x[g - 1] : 0f, right = g + 1 < n ? x[g + 1] : 0f;
            y[g] = (left + x[g] + right) * w[g] + o[g];
        }
        return y;
    }

    static double[] blockSums(double[] x, int group) {
        int groups = (x.length + group - 1) / group;
        double[] s = new double[groups];
        for (int i = 0; i < x.length; i++) s[i / group] += x[i];
        return s;
    }

    static float[] fastMath(float[] x) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            y[i] = (float) (Math.exp(-v) + Math.log(v + 1) + Math.sin(v) + Math.cos(v) + Math.sqrt(v) + 1 / Math.sqrt(v + 1) + v / 3);
        }
        return y;
    }

    /** {@link ConformanceKernels#rotateInLoop}, group by group. */
    static long[] rotateInLoop(long[] x, int group, int steps) {
        long[] out = x.clone();
        for (int g0 = 0; g0 < x.length; g0 += group) {
            long[] v = java.util.Arrays.copyOfRange(x, g0, g0 + group);
            for (int s = 0; s < steps; s++) {
                long[] next = new long[group];
                for (int l = 0; l < group; l++) next[l] = v[(l + 1) % group] * 3 + s;
                v = next;
            }
            System.arraycopy(v, 0, out, g0, group);
        }
        return out;
    }

    static int[] liveAcrossBarriers(int[] x, int group) {
        int[] out = new int[x.length];
        for (int g0 = 0; g0 < x.length; g0 += group) {
            int[] mine = new int[group], left = new int[group], a = new int[group];
            for (int l = 0; l < group; l++) mine[l] = x[g0 + l] * 7 + l;
            for (int l = 0; l < group; l++) left[l] = mine[(l + group - 1) % group];
            for (int l = 0; l < group; l++) a[l] = left[l] + 2 * mine[l];
            for (int l = 0; l < group; l++) out[g0 + l] = a[group - 1 - l] + mine[l] - left[l];
        }
        return out;
    }

    static long[] nestedLoopBarriers(long[] x, int group, int outer, int inner) {
        long[] out = new long[x.length];
        for (int g0 = 0; g0 < x.length; g0 += group) {
            long[] acc = java.util.Arrays.copyOfRange(x, g0, g0 + group);
            for (int i = 0; i < outer; i++) {
                for (int j = 0; j < inner; j++) {
                    long[] buf = new long[group];
                    for (int l = 0; l < group; l++) buf[l] = acc[l] + j;
                    for (int l = 0; l < group; l++) acc[l] = buf[(l + i + 1) % group] ^ (acc[l] * 31 + i);
                }
                if (i % 2 == 1) {
                    long first = acc[0];
                    for (int l = 0; l < group; l++) acc[l] += first;
                }
            }
            System.arraycopy(acc, 0, out, g0, group);
        }
        return out;
    }

    static double[] gemm(double[] a, double[] b, int n) {
        double[] c = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
                c[i * n + j] = s;
            }
        }
        return c;
    }

    /** Group sums and log2(group) steps, as {@link ConformanceKernels#treeReduceSteps} writes them. */
    static long[] treeReduceSteps(long[] x, int group) {
        long[] out = new long[2 * (x.length / group)];
        for (int g = 0; g < x.length / group; g++) {
            long s = 0;
            for (int l = 0; l < group; l++) s += x[g * group + l];
            out[2 * g] = s;
            out[2 * g + 1] = Integer.numberOfTrailingZeros(group);
        }
        return out;
    }

    /** {@link ConformanceKernels#subgroupRounds} with sub-groups of 32, plain sums. */
    static double[] subgroupRounds(double[] x, int rounds) {
        double[] v = x.clone();
        for (int r = 0; r < rounds; r++) {
            double[] next = new double[v.length];
            for (int s0 = 0; s0 < v.length; s0 += 32) {
                double sum = 0;
                for (int l = 0; l < 32; l++) sum += v[s0 + l];
                for (int l = 0; l < 32; l++) next[s0 + l] = v[s0 + l] * 0.5 + sum / 32 - v[s0] * 0.25;
            }
            v = next;
        }
        return v;
    }
}
