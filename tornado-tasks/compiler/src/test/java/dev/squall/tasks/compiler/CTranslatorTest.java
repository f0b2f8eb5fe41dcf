package dev.squall.tasks.compiler;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What the translator writes for each construct of the kernel language, in OpenCL C and in CUDA C: small kernels
 * are compiled through javac with {@link KernelProcessor} and the generated programs are checked line by line
 * against the C each construct must become (LANGUAGE.md).
 */
class CTranslatorTest {
    private static final String KERNELS = """
            package t;

            import dev.squall.tasks.api.*;

            public class K {
                static final int BLOCK = 64;

                @Kernel
                public static void scale(DoubleArray x, double a, int n) {
                    for (@Parallel int i = 0; i < n; i++) x.set(i, a * x.get(i));
                }

                @Kernel
                public static void blockSum(KernelContext ctx, @ReadOnly DoubleArray x, DoubleArray sums) {
                    double[] part = ctx.allocateDoubleLocalArray(BLOCK);
                    double[] mine = new double[4];
                    part[ctx.localIdx] = x.get(ctx.globalIdx);
                    ctx.localBarrier();
                    if (ctx.localIdx == 0) sums.set(ctx.groupIdx, sumOf(part, BLOCK) + firstOf(mine));
                }

                @DeviceFunction
                static double sumOf(double[] a, int n) {
                    double s = 0;
                    for (int i = 0; i < n; i++) s += a[i];
                    return s;
                }

                @DeviceFunction
                static double firstOf(double[] a) {
                    return a[0];
                }

                @Kernel
                public static void histogram(KernelContext ctx, @ReadOnly IntArray keys, IntArray counts, FloatArray total) {
                    ctx.atomicAdd(counts, keys.get(ctx.globalIdx), 1);
                    ctx.atomicAdd(total, 0, 1.5f);
                }

                @Kernel
                public static void warpSum(KernelContext ctx, DoubleArray x) {
                    double s = ctx.subgroupReduceAdd(x.get(ctx.globalIdx));
                    if (ctx.subgroupLocalId() == 0) x.set(ctx.globalIdx, s);
                }

                @Kernel
                public static void staged(KernelContext ctx, @ReadOnly DoubleArray x, FloatArray y, DoubleArray out, int n) {
                    double[] tile = ctx.allocateDoubleLocalArray(BLOCK);
                    float[] small = ctx.allocateFloatLocalArray(BLOCK);
                    ctx.asyncCopy(tile, 0, x, (long) ctx.groupIdx * BLOCK, Math.min(BLOCK, n - ctx.groupIdx * BLOCK));
                    ctx.asyncCopy(small, 1, y, 0, BLOCK - 1);
                    ctx.asyncWait();
                    ctx.localBarrier();
                    out.set(ctx.globalIdx, tile[ctx.localIdx] + small[ctx.localIdx]);
                }

                @Kernel
                public static void unrolled(KernelContext ctx, DoubleArray x) {
                    double[] v = new double[4];
                    for (@Unroll int i = 0; i < 4; i++) v[i] = x.get(ctx.globalIdx * 4 + i);
                    for (@Unroll int i = 0; i < 4; i++) v[i] = ctx.shuffleXor(v[i], 1);
                    for (@Unroll(2) int i = 0; i < 4; i++) {
                        ctx.localBarrier();
                        x.set(ctx.globalIdx * 4 + i, v[i]);
                    }
                    for (@Unroll int i = 0; i < 4; i++) x.set(ctx.globalIdx * 4 + i, v[i] + firstOf(v));
                }

                @Kernel
                public static void bits(IntArray a, LongArray b, int s, double half) {
                    for (@Parallel int i = 0; i < a.getSize(); i++) {
                        a.set(i, (a.get(i) >>> s) + (a.get(i) << 33) + (int) (half % 2.0));
                        b.set(i, b.get(i) >> s);
                    }
                }
            }
            """;

    private static final String TWIN = """
            package t;

            import dev.squall.tasks.api.*;

            @Fp32Variant("ScaleF32")
            public class ScaleF64 {
                static final double THIRD = 1.0 / 3.0;

                @Kernel
                public static void shift(DoubleArray x, int n) {
                    for (@Parallel int i = 0; i < n; i++) x.set(i, Math.sqrt(x.get(i)) * 0.25 + THIRD);
                }
            }
            """;

    private static String cl, cu, twinCl, twinCu;

    @BeforeAll
    static void translate(@TempDir Path out) throws IOException {
        InProcessJavac.Result r = InProcessJavac.compile(out.resolve("k"), "t.K", KERNELS);
        assertTrue(r.ok(), r::report);
        cl = Files.readString(out.resolve("k/META-INF/squall/kernels/t.K.cl"));
        cu = Files.readString(out.resolve("k/META-INF/squall/kernels/t.K.cu"));
        InProcessJavac.Result t = InProcessJavac.compile(out.resolve("twin"), "t.ScaleF64", TWIN);
        assertTrue(t.ok(), t::report);
        twinCl = Files.readString(out.resolve("twin/META-INF/squall/kernels/t.ScaleF32.cl"));
        twinCu = Files.readString(out.resolve("twin/META-INF/squall/kernels/t.ScaleF32.cu"));
    }

    /** Asserts that {@code program} has {@code lines} as consecutive lines (each compared whole, indentation included). */
    private static void assertLines(String program, String lines) {
        assertTrue(("\n" + program).contains("\n" + lines), () -> "expected the lines\n" + lines + "\nin\n" + program);
    }

    @Test
    void parallelLoopBecomesGridStrideLoopOverTripCount() {
        assertLines(cl, """
                __kernel void scale(__global double* x, long x__len, double a, int n) {
                    const long sq_trip0 = sq_trip_lt((long) (0), (long) (n), 1);
                    for (long sq_t0 = ((long) get_global_id(0)); sq_t0 < sq_trip0; sq_t0 += ((long) get_global_size(0))) {
                        int i = (int) sq_t0;
                        x[i] = (a * x[i]);
                    }
                }
                """);
        assertLines(cu, """
                extern "C" __global__ void scale(double* x, long long x__len, double a, int n) {
                    const long long sq_trip0 = sq_trip_lt((long long) (0), (long long) (n), 1);
                    for (long long sq_t0 = ((long long) blockIdx.x * blockDim.x + threadIdx.x); sq_t0 < sq_trip0; sq_t0 += ((long long) gridDim.x * blockDim.x)) {
                        int i = (int) sq_t0;
                        x[i] = (a * x[i]);
                    }
                }
                """);
        assertLines(cl, "long sq_trip_lt(long start, long end, long step) { return end > start ? (end - start + step - 1) / step : 0; }\n");
        assertLines(cu, "__device__ long long sq_trip_lt(long long start, long long end, long long step) { return end > start ? (end - start + step - 1) / step : 0; }\n");
    }

    @Test
    void localArrayIsHoistedAndBarrierFencesLocalAndGlobalMemory() {
        assertLines(cl, """
                __kernel void blockSum(__global const double* restrict x, long x__len, __global double* sums, long sums__len) {
                    __local double part[64];
                    double mine[4] = {0};
                    part[(int) get_local_id(0)] = x[(int) get_global_id(0)];
                    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
                """);
        assertLines(cu, """
                extern "C" __global__ void blockSum(const double* __restrict__ x, long long x__len, double* sums, long long sums__len) {
                    __shared__ __align__(16) double part[64];
                    double mine[4] = {0};
                    part[(int) threadIdx.x] = x[(int) (blockIdx.x * blockDim.x + threadIdx.x)];
                    __syncthreads();
                """);
    }

    @Test
    void deviceFunctionArrayParametersTakeTheAddressSpaceOfTheirArguments() {
        assertLines(cl, "double sq_fn_sumOf(__local double* a, int n);\n");
        assertLines(cl, "double sq_fn_firstOf(double* a);\n");
        assertLines(cl, "        sums[(int) get_group_id(0)] = (sq_fn_sumOf(part, 64) + sq_fn_firstOf(mine));\n");
        assertLines(cu, "__device__ double sq_fn_sumOf(double* a, int n);\n");
        assertLines(cu, "__device__ double sq_fn_firstOf(double* a);\n");
        assertLines(cu, """
                __device__ double sq_fn_sumOf(double* a, int n) {
                    double s = 0;
                    for (int i = 0; i < n; i++)
                    {
                        s += a[i];
                    }
                    return s;
                }
                """);
    }

    @Test
    void atomicsUseBuiltInsAndACompareAndSwapLoopForFloatOnOpenCl() {
        assertLines(cl, """
                    atomic_add(&counts[keys[(int) get_global_id(0)]], 1);
                    sq_atomic_add_f_global(&total[0], 1.5f);
                """);
        assertLines(cl, """
                float sq_atomic_add_f_global(volatile __global float* p, float v) {
                    int old = as_int(*p), seen;
                    do {
                        seen = old;
                        old = atomic_cmpxchg((volatile __global int*) p, seen, as_int(as_float(seen) + v));
                    } while (old != seen);
                    return as_float(old);
                }
                """);
        assertLines(cu, """
                    atomicAdd(&counts[keys[(int) (blockIdx.x * blockDim.x + threadIdx.x)]], 1);
                    atomicAdd(&total[0], 1.5f);
                """);
    }

    @Test
    void subgroupReductionShufflesWarpsOnCudaAndExchangesThroughLocalMemoryOnOpenCl() {
        assertLines(cl, """
                __kernel void warpSum(__global double* x, long x__len) {
                """);
        assertTrue(cl.contains("    __local long sq_xchg_buf[1024];\n"), cl);
        assertLines(cl, "    double s = sq_sg_add_d(sq_xchg_buf, x[(int) get_global_id(0)]);\n");
        assertLines(cl, """
                double sq_sg_add_d(__local long* xc, double v) {
                    for (int m = sq_sgsize() / 2; m > 0; m >>= 1) v += sq_shfl_xor_d(xc, v, m);
                    return v;
                }
                """);
        assertLines(cu, """
                extern "C" __global__ void warpSum(double* x, long long x__len) {
                    double s = sq_sg_add(x[(int) (blockIdx.x * blockDim.x + threadIdx.x)]);
                    if (sq_sglane() == 0)
                """);
        assertLines(cu, "template <typename T> __device__ T sq_shfl_xor(T v, int m) { return __shfl_sync(sq_sgmask(), v, sq_sglane() ^ m); }\n");
        assertFalse(cu.contains("sq_xchg_buf"), cu);
    }

    @Test
    void asyncCopiesAreSharedCopiesOnOpenClAndCpAsyncOnCuda() {
        assertLines(cl, """
                __kernel void staged(__global const double* restrict x, long x__len, __global float* y, long y__len, __global double* out, long out__len, int n) {
                    __local double tile[64];
                    __local float small[64];
                    sq_async_copy_d((tile + (0)), (x + (((long) ((int) get_group_id(0))) * 64)), (long) (sq_min_i((int) 64, (int) (n - (((int) get_group_id(0)) * 64)))));
                    sq_async_copy_f((small + (1)), (y + (0)), (long) (64 - 1));
                    (void) 0;
                    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
                """);
        assertLines(cl, """
                void sq_async_copy_d(__local double* dst, __global const double* src, long n) {
                    long step = (long) (get_local_size(0) * get_local_size(1) * get_local_size(2));
                    for (long i = sq_lid(); i < n; i += step) dst[i] = src[i];
                }
                """);
        assertLines(cu, """
                extern "C" __global__ void staged(const double* __restrict__ x, long long x__len, float* y, long long y__len, double* out, long long out__len, int n) {
                    __shared__ __align__(16) double tile[64];
                    __shared__ __align__(16) float small[64];
                    sq_async_copy((tile + (0)), (x + (((long long) ((int) blockIdx.x)) * 64)), (long long) (sq_min_i((int) 64, (int) (n - (((int) blockIdx.x) * 64)))));
                    sq_async_copy((small + (1)), (y + (0)), (long long) (64 - 1));
                    sq_async_wait();
                    __syncthreads();
                """);
        assertLines(cu, "template <typename T> __device__ void sq_async_copy(T* dst, const T* src, long long n) {\n");
        assertTrue(cu.contains("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n    asm volatile(\"cp.async.wait_all;\" ::: \"memory\");"), cu);
        assertTrue(cu.contains("asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\""), cu);
        assertTrue(cu.contains("#else\n    for (long long i = t; i < n; i += nt) dst[i] = src[i];\n#endif"), "a plain copy below sm_80: " + cu);
        assertFalse(cl.contains("sq_async_copy_i") || cl.contains("sq_async_copy_l"), "only the element types copied get a helper: " + cl);
    }

    @Test
    void unrolledLoopsThatSynchroniseTheGroupUnrollOnOpenClOnlyWithWarpShuffles() {
        assertLines(cl, "    double v[4] = {0};\n#pragma unroll\n    for (int i = 0; i < 4; i++)\n");
        assertLines(cl, "#ifdef SQ_NV_PTX\n#pragma unroll\n#endif\n    for (int i_1 = 0; i_1 < 4; i_1++)\n");
        assertLines(cl, "#ifdef SQ_NV_PTX\n#pragma unroll 2\n#endif\n    for (int i_2 = 0; i_2 < 4; i_2++)\n");
        // a device function without barriers does not synchronise
        assertLines(cl, "    }\n#pragma unroll\n    for (int i_3 = 0; i_3 < 4; i_3++)\n");
        assertLines(cu, "#pragma unroll\n    for (int i_1 = 0; i_1 < 4; i_1++)\n");
        assertLines(cu, "#pragma unroll 2\n    for (int i_2 = 0; i_2 < 4; i_2++)\n");
        assertFalse(cu.contains("SQ_NV_PTX"), cu);
    }

    @Test
    void shiftsAreMaskedAndRemainderOnDoublesIsFmod() {
        // the parameter "half" is an OpenCL type name, so it is renamed in both dialects
        assertLines(cl, "__kernel void bits(__global int* a, long a__len, __global long* b, long b__len, int s, double half_v) {\n");
        assertLines(cl, "        a[i] = ((((int) ((uint) (int) (a[i]) >> (s & 31))) + ((int) (a[i]) << (33 & 31))) "
                + "+ ((int) fmod((double) half_v, (double) 2.0)));\n        b[i] = ((long) (b[i]) >> (s & 63));\n");
        assertLines(cu, "        a[i] = ((((int) ((unsigned int) (int) (a[i]) >> (s & 31))) + ((int) (a[i]) << (33 & 31))) "
                + "+ ((int) fmod((double) half_v, (double) 2.0)));\n        b[i] = ((long long) (b[i]) >> (s & 63));\n");
    }

    @Test
    void fp32VariantTurnsDoubleLiteralsConstantsAndMathIntoFloat() {
        assertLines(twinCl, "__kernel void shift(__global float* x, long x__len, int n) {\n");
        assertLines(twinCl, "        x[i] = ((sqrt((float) x[i]) * 0.25f) + 0.33333334f);\n");
        assertLines(twinCu, "extern \"C\" __global__ void shift(float* x, long long x__len, int n) {\n");
        assertLines(twinCu, "        x[i] = ((sqrtf((float) x[i]) * 0.25f) + 0.33333334f);\n");
        assertFalse(twinCl.contains("double"), twinCl);
        assertFalse(twinCu.contains("double"), twinCu);
    }
}
