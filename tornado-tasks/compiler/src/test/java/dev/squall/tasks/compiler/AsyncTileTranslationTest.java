package dev.squall.tasks.compiler;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What {@code ctx.asyncCopyTile}, {@code asyncCommit} and {@code asyncWaitGroups} become in OpenCL C and CUDA C, and how
 * local memory past CUDA's 48 KiB of static shared memory is declared (LANGUAGE.md).
 */
class AsyncTileTranslationTest {
    private static final String KERNELS = """
            package t;

            import dev.squall.tasks.api.*;

            public class P {
                static final int LD = 20, STAGE = 16 * LD;

                @Kernel
                public static void pipe(KernelContext ctx, @ReadOnly DoubleArray x, DoubleArray out, int ld, int tiles) {
                    double[] st = ctx.allocateDoubleLocalArray(2 * STAGE);
                    ctx.asyncCopyTile(st, 0, LD, x, 0, ld, 16, 16, 16, 16);
                    ctx.asyncCommit();
                    for (int t = 1; t < tiles; t++) {
                        ctx.asyncCopyTile(st, (t % 2) * STAGE, LD, x, (long) t * 16 * ld, ld, 16, 16, 16, 16);
                        ctx.asyncCommit();
                        ctx.asyncWaitGroups(1);
                        ctx.localBarrier();
                        out.set(ctx.globalIdx, st[((t - 1) % 2) * STAGE + ctx.localIdx]);
                        ctx.localBarrier();
                    }
                    ctx.asyncWaitGroups(0);
                    ctx.localBarrier();
                }

                @Kernel
                public static void big(KernelContext ctx, @ReadOnly FloatArray f, FloatArray out) {
                    double[] a = ctx.allocateDoubleLocalArray(4096);
                    float[] b = ctx.allocateFloatLocalArray(8195);
                    int[] c = ctx.allocateIntLocalArray(4);
                    a[ctx.localIdx] = 1;
                    b[ctx.localIdx] = f.get(ctx.globalIdx);
                    c[0] = 2;
                    ctx.localBarrier();
                    out.set(ctx.globalIdx, (float) a[0] + b[ctx.localIdx] + c[0]);
                }

                @Kernel
                public static void small(KernelContext ctx, FloatArray out) {
                    float[] b = ctx.allocateFloatLocalArray(64);
                    b[ctx.localIdx] = 1;
                    ctx.localBarrier();
                    out.set(ctx.globalIdx, b[63 - ctx.localIdx]);
                }
            }
            """;

    private static String cl, cu;

    @BeforeAll
    static void translate(@TempDir Path out) throws IOException {
        InProcessJavac.Result r = InProcessJavac.compile(out.resolve("p"), "t.P", KERNELS);
        assertTrue(r.ok(), r::report);
        cl = Files.readString(out.resolve("p/META-INF/squall/kernels/t.P.cl"));
        cu = Files.readString(out.resolve("p/META-INF/squall/kernels/t.P.cu"));
    }

    private static void assertLines(String program, String lines) {
        assertTrue(("\n" + program).contains("\n" + lines), () -> "expected the lines\n" + lines + "\nin\n" + program);
    }

    @Test
    void tileCopyCommitAndWaitInCuda() {
        assertLines(cu, """
                    sq_async_tile((st + (0)), (int) (20), (x + (0)), (long long) (ld), (int) (16), (int) (16), (int) (16), (int) (16));
                    sq_async_commit();
                """);
        assertLines(cu, "        sq_async_wait_groups<1>();\n");
        assertLines(cu, "    sq_async_wait_groups<0>();\n");
        assertTrue(cu.contains("cp.async.cg.shared.global [%0], [%1], 16, %2;"), cu);
        assertTrue(cu.contains("cp.async.commit_group;"), cu);
        assertTrue(cu.contains("\"cp.async.wait_group %0;\" :: \"n\"(N)"), cu);
    }

    @Test
    void tileCopyIsAPlainCopyInOpenCl() {
        assertLines(cl, "    sq_async_tile_d((st + (0)), (int) (20), (x + (0)), (long) (ld), (int) (16), (int) (16), (int) (16), (int) (16));\n");
        assertTrue(cl.contains("void sq_async_tile_d(__local double* dst, int dld, __global const double* src, long sld, int rows, int cols, int vrows, int vcols) {"), cl);
        assertTrue(cl.contains("dst[r * dld + c] = r < vrows && c < vcols ? src[r * sld + c] : (double) 0;"), cl);
        // commit and wait have nothing to do where the copy is synchronous
        assertFalse(cl.contains("sq_async_commit") || cl.contains("sq_async_wait_groups"), cl);
    }

    @Test
    void localMemoryPast48KiBIsDynamicSharedMemoryOnCuda() {
        // 4096 doubles + 8195 floats (from 32768, 16-byte aligned) + 4 ints (from 65552) = 65568 bytes
        assertLines(cu, """
                extern "C" __device__ int sq_dynamic_shared_big = 65568;
                extern "C" __global__ void big(""");
        assertLines(cu, """
                    extern __shared__ __align__(16) unsigned char sq_dyn_smem[];
                    double* a = (double*) (sq_dyn_smem + 0);
                    float* b = (float*) (sq_dyn_smem + 32768);
                    int* c = (int*) (sq_dyn_smem + 65552);
                """);
        // within 48 KiB: static and 16-byte aligned, no global for the runtime
        assertLines(cu, "    __shared__ __align__(16) float b[64];\n");
        assertFalse(cu.contains("sq_dynamic_shared_small"), cu);
        assertFalse(cu.contains("sq_dynamic_shared_pipe"), cu);
        // OpenCL keeps __local arrays
        assertTrue(cl.contains("__local double a[4096];"), cl);
    }
}
