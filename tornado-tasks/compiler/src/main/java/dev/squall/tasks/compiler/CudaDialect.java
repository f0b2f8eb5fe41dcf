package dev.squall.tasks.compiler;

import javax.lang.model.type.TypeKind;
import java.util.List;

/**
 * CUDA C++ for NVRTC: kernels are {@code extern "C" __global__} so the runtime finds them by
 * their Java names; sub-group operations are warp shuffles over the lanes of the warp the block
 * fills (all 32, or the first blockDim lanes of a block smaller than a warp).
 */
final class CudaDialect extends CDialect {
    CudaDialect() {
        commonHelpers();
        // one MUFU.EX2 without the denormal fix-up that ex2.approx.f32 needs (PTX ISA, ex2 instruction)
        helper("sq_fast_exp2", "$Ffloat sq_fast_exp2(float x) { float r; asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(r) : \"f\"(x)); return r; }");
        helper("sq_ntz_i", "$Fint sq_ntz_i(int x) { return x == 0 ? 32 : __ffs(x) - 1; }");
        helper("sq_ntz_l", "$Fint sq_ntz_l(long long x) { return x == 0 ? 64 : __ffsll(x) - 1; }");
        helper("sq_hob_i", "$Fint sq_hob_i(int x) { return x == 0 ? 0 : (int) (0x80000000u >> __clz(x)); }");
        helper("sq_hob_l", "$Flong long sq_hob_l(long long x) { return x == 0 ? 0 : (long long) (0x8000000000000000ULL >> __clzll(x)); }");
        helper("sq_lid", "$Fint sq_lid() { return (int) (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)); }");
        helper("sq_sgsize", "$Fint sq_sgsize() { int n = (int) (blockDim.x * blockDim.y * blockDim.z); return n < 32 ? n : 32; }");
        helper("sq_sglane", "$Fint sq_sglane() { return sq_lid() & 31; }", "sq_lid");
        helper("sq_sgmask", "$Funsigned sq_sgmask() { int n = sq_sgsize(); return n == 32 ? 0xffffffffu : ((1u << n) - 1u); }", "sq_sgsize");
        helper("sq_shfl", """
                template <typename T> $FT sq_shfl_down(T v, int d) {
                    int lane = sq_sglane(), s = lane + d;
                    return __shfl_sync(sq_sgmask(), v, s < sq_sgsize() ? s : lane);
                }
                template <typename T> $FT sq_shfl_xor(T v, int m) { return __shfl_sync(sq_sgmask(), v, sq_sglane() ^ m); }
                template <typename T> $FT sq_shfl_idx(T v, int src) { return __shfl_sync(sq_sgmask(), v, src); }
                template <typename T> $FT sq_sg_add(T v) {
                    for (int m = sq_sgsize() >> 1; m > 0; m >>= 1) v += sq_shfl_xor(v, m);
                    return v;
                }""", "sq_sglane", "sq_sgmask", "sq_sgsize");
        // FP64 tensor cores from sm_80 (PTX ISA 7.0); older devices shuffle the fragments (lane l: A(l/4, l%4),
        // B(l%4, l/4), C(l/4, 2(l%4) + 0..1)). Non-volatile asm: no side effects, so ptxas may schedule it freely.
        helper("sq_mma884", """
                $Fvoid sq_mma884(double a, double b, double& d0, double& d1) {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                        : "+d"(d0), "+d"(d1) : "d"(a), "d"(b));
                #else
                    int lane = sq_sglane(), row = lane >> 2, col = (lane & 3) * 2;
                    for (int k = 0; k < 4; k++) {
                        double ak = sq_shfl_idx(a, row * 4 + k);
                        double b0 = sq_shfl_idx(b, col * 4 + k);
                        double b1 = sq_shfl_idx(b, (col + 1) * 4 + k);
                        d0 = fma(ak, b0, d0);
                        d1 = fma(ak, b1, d1);
                    }
                #endif
                }""", "sq_sglane", "sq_shfl");
        // cp.async (sm_80, PTX ISA 7.0): the threads of the block share the run; 16-byte transfers (.cg, past L1) where
        // source and destination are alike modulo 16, element-sized ones (.ca) for the ends or the whole run otherwise.
        // Each thread commits its copies as one group; sq_async_wait waits for all of this thread's groups, and the
        // kernel's barrier after it publishes every thread's share. Older devices copy at once.
        helper("sq_async_copy", """
                template <typename T> $Fvoid sq_async_copy(T* dst, const T* src, long long n) {
                    long long t = sq_lid(), nt = (long long) (blockDim.x * blockDim.y * blockDim.z);
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    const long long per = 16 / (long long) sizeof(T);
                    unsigned s;
                    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(s) : "l"(dst));
                    long long head = n, chunks = 0;
                    if ((((unsigned long long) src ^ (unsigned long long) s) & 15) == 0) {
                        head = (long long) (((16u - (s & 15u)) & 15u) / sizeof(T));
                        if (head > n) head = n;
                        chunks = (n - head) / per;
                    }
                    for (long long i = t; i < head; i += nt)
                        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(s + (unsigned) (i * sizeof(T))), "l"(src + i), "n"(sizeof(T)) : "memory");
                    for (long long c = t; c < chunks; c += nt)
                        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s + (unsigned) ((head + c * per) * sizeof(T))), "l"(src + head + c * per) : "memory");
                    for (long long i = head + chunks * per + t; i < n; i += nt)
                        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(s + (unsigned) (i * sizeof(T))), "l"(src + i), "n"(sizeof(T)) : "memory");
                    asm volatile("cp.async.commit_group;" ::: "memory");
                #else
                    for (long long i = t; i < n; i += nt) dst[i] = src[i];
                #endif
                }""", "sq_lid");
        helper("sq_async_wait", """
                $Fvoid sq_async_wait() {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    asm volatile("cp.async.wait_all;" ::: "memory");
                #endif
                }""");
        // asyncCopyTile (sm_80, PTX ISA 7.0): the block splits the tile into 16-byte chunks of its rows, chunk i to thread
        // i mod blockDim; a whole chunk is one cp.async.cg of 16 bytes whose source size (16, 8 ... or 0 bytes) zero-fills
        // what lies outside vrows x vcols; a row's partial last chunk, or every element when the addresses or strides
        // are not 16-byte aligned, goes element by element (cp.async.ca, zero-filled alike). Not committed here:
        // sq_async_commit closes the group, sq_async_wait_groups<N> waits for all but the N newest groups.
        helper("sq_async_tile", """
                template <typename T> __device__ __forceinline__ void sq_async_tile(T* dst, int dld, const T* src, long long sld,
                                                                        int rows, int cols, int vrows, int vcols) {
                    int t = sq_lid(), nt = (int) (blockDim.x * blockDim.y * blockDim.z);
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    const int per = 16 / (int) sizeof(T);
                    unsigned s;
                    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(s) : "l"(dst));
                    bool aligned = ((s | (unsigned) dld * (unsigned) sizeof(T)) & 15u) == 0
                            && (((unsigned long long) src | (unsigned long long) sld * sizeof(T)) & 15u) == 0;
                    if (aligned) {
                        int cpr = (cols + per - 1) / per, n = rows * cpr;
                        for (int i = t; i < n; i += nt) {
                            int r = i / cpr, c = (i - r * cpr) * per;
                            int w = cols - c < per ? cols - c : per;
                            int v = r < vrows ? (vcols - c < w ? (vcols - c > 0 ? vcols - c : 0) : w) : 0;
                            unsigned d = s + (unsigned) ((r * dld + c) * (int) sizeof(T));
                            const T* g = v > 0 ? src + r * sld + c : src;
                            if (w == per) {
                                asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d), "l"(g), "r"(v * (int) sizeof(T)) : "memory");
                            } else {
                                for (int e = 0; e < w; e++)
                                    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: "r"(d + (unsigned) (e * (int) sizeof(T))),
                                                 "l"(e < v ? g + e : src), "n"(sizeof(T)), "r"(e < v ? (int) sizeof(T) : 0) : "memory");
                            }
                        }
                    } else {
                        for (int i = t, n = rows * cols; i < n; i += nt) {
                            int r = i / cols, c = i - r * cols;
                            bool v = r < vrows && c < vcols;
                            asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: "r"(s + (unsigned) ((r * dld + c) * (int) sizeof(T))),
                                         "l"(v ? src + r * sld + c : src), "n"(sizeof(T)), "r"(v ? (int) sizeof(T) : 0) : "memory");
                        }
                    }
                #else
                    for (int i = t, n = rows * cols; i < n; i += nt) {
                        int r = i / cols, c = i - r * cols;
                        dst[r * dld + c] = r < vrows && c < vcols ? src[r * sld + c] : (T) 0;
                    }
                #endif
                }""", "sq_lid");
        // asyncCopyChunk (sm_80): one cp.async.cg of 16 bytes by this thread, src-size count * 8 (the rest zero-filled,
        // nothing read when count is 0); dst and src 16-byte aligned
        helper("sq_async_chunk", """
                __device__ __forceinline__ void sq_async_chunk(double* dst, const double* src, int count) {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                                 :: "r"((unsigned) __cvta_generic_to_shared(dst)), "l"(src), "r"(count * 8) : "memory");
                #else
                    dst[0] = count > 0 ? src[0] : 0.0;
                    dst[1] = count > 1 ? src[1] : 0.0;
                #endif
                }""");
        helper("sq_async_commit", """
                __device__ __forceinline__ void sq_async_commit() {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    asm volatile("cp.async.commit_group;" ::: "memory");
                #endif
                }""");
        helper("sq_async_wait_groups", """
                template <int N> __device__ __forceinline__ void sq_async_wait_groups() {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
                    asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory");
                #endif
                }""");
        // m16n8k4.f64 is sm_90 (PTX ISA 7.8); it runs at twice the rate of m8n8k4 there (H100: 64.5 vs 33 TFLOP/s)
        helper("sq_mma1684", """
                $Fvoid sq_mma1684(double a0, double a1, double b, double& d0, double& d1, double& d2, double& d3) {
                #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
                    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                        : "+d"(d0), "+d"(d1), "+d"(d2), "+d"(d3) : "d"(a0), "d"(a1), "d"(b));
                #else
                    sq_mma884(a0, b, d0, d1);
                    sq_mma884(a1, b, d2, d3);
                #endif
                }""", "sq_mma884");
    }

    @Override
    String asyncCopy(TypeKind k, String dst, String src, String count) {
        return "sq_async_copy(" + dst + ", " + src + ", (long long) (" + count + "))";
    }

    @Override
    String asyncCommit() {
        return "sq_async_commit()";
    }

    @Override
    String asyncWaitGroups(int pending) {
        return "sq_async_wait_groups<" + pending + ">()";
    }

    @Override
    String asyncWait() {
        return "sq_async_wait()";
    }

    @Override
    String backend() {
        return "cuda";
    }

    @Override
    String preamble() {
        return "";
    }

    @Override
    String kernelPrefix() {
        return "extern \"C\" __global__ void";
    }

    @Override
    String launchBounds(int maxGroupSize, int minGroupsPerUnit) {
        return " __launch_bounds__(" + maxGroupSize + ", " + minGroupsPerUnit + ")";
    }

    @Override
    String functionPrefix() {
        return "__device__";
    }

    @Override
    String arrayParam(String elemC, boolean readOnly, boolean restrict, String name) {
        return (readOnly ? "const " : "") + elemC + "* " + (restrict ? "__restrict__ " : "") + name;
    }

    @Override
    String arrayParameter(String elemC, String space, String name) {
        return elemC + "* " + name;
    }

    @Override
    String pointerType(String elemC) {
        return elemC + "*";
    }

    /** Bytes of static shared memory a kernel may declare; kernels past it take dynamic shared memory. */
    static final long STATIC_SHARED_LIMIT = 48 * 1024;

    /** Prefix of the module global holding the dynamic shared memory bytes of a kernel (read by the runtime). */
    static final String DYNAMIC_SHARED_PREFIX = "sq_dynamic_shared_";

    @Override
    String localArray(String elemC, String name, long size) {
        // 16-byte aligned: cp.async copies 16-byte chunks
        return "__shared__ __align__(16) " + elemC + " " + name + "[" + size + "];";
    }

    /** Bytes of the arrays laid out one after another, each from a 16-byte boundary. */
    private static long sharedBytes(List<LocalArray> arrays) {
        long off = 0;
        for (LocalArray a : arrays) off = (off + 15) / 16 * 16 + a.size() * a.elemBytes();
        return off;
    }

    /**
     * Up to 48 KiB the arrays are static {@code __shared__}; past that they are carved from dynamic shared memory
     * (a block may have up to 227 KiB on sm_90), and the global {@code sq_dynamic_shared_<kernel>} tells the runtime
     * how many bytes to ask for at launch.
     */
    @Override
    String localArrays(String kernel, List<LocalArray> arrays) {
        if (sharedBytes(arrays) <= STATIC_SHARED_LIMIT) return super.localArrays(kernel, arrays);
        StringBuilder sb = new StringBuilder("    extern __shared__ __align__(16) unsigned char sq_dyn_smem[];\n");
        long off = 0;
        for (LocalArray a : arrays) {
            off = (off + 15) / 16 * 16;
            sb.append("    ").append(a.elemC()).append("* ").append(a.name()).append(" = (").append(a.elemC()).append("*) (sq_dyn_smem + ")
                    .append(off).append(");\n");
            off += a.size() * a.elemBytes();
        }
        return sb.toString();
    }

    @Override
    String localArraysPreamble(String kernel, List<LocalArray> arrays) {
        long bytes = sharedBytes(arrays);
        if (bytes <= STATIC_SHARED_LIMIT) return "";
        if (bytes > Integer.MAX_VALUE) throw new IllegalStateException("kernel " + kernel + " declares " + bytes + " bytes of local memory");
        return "extern \"C\" __device__ int " + DYNAMIC_SHARED_PREFIX + kernel + " = " + bytes + ";\n";
    }

    @Override
    String longType() {
        return "long long";
    }

    @Override
    String byteType() {
        return "signed char";
    }

    @Override
    String unsignedOf(TypeKind k) {
        return k == TypeKind.LONG ? "unsigned long long" : "unsigned int";
    }

    @Override
    String longSuffix() {
        return "LL";
    }

    private static final String[] XYZ = {"x", "y", "z"};

    @Override
    String globalId(int d) {
        return "((int) (blockIdx." + XYZ[d] + " * blockDim." + XYZ[d] + " + threadIdx." + XYZ[d] + "))";
    }

    @Override
    String localId(int d) {
        return "((int) threadIdx." + XYZ[d] + ")";
    }

    @Override
    String groupId(int d) {
        return "((int) blockIdx." + XYZ[d] + ")";
    }

    @Override
    String globalSize(int d) {
        return "((int) (gridDim." + XYZ[d] + " * blockDim." + XYZ[d] + "))";
    }

    @Override
    String localSize(int d) {
        return "((int) blockDim." + XYZ[d] + ")";
    }

    @Override
    String loopGlobalId(int d) {
        return "((long long) blockIdx." + XYZ[d] + " * blockDim." + XYZ[d] + " + threadIdx." + XYZ[d] + ")";
    }

    @Override
    String loopGlobalSize(int d) {
        return "((long long) gridDim." + XYZ[d] + " * blockDim." + XYZ[d] + ")";
    }

    @Override
    String globalFence() {
        return "__threadfence()";
    }

    @Override
    String volatileElement(TypeKind k, String ptr) {
        // volatile global accesses compile to ld.volatile / st.volatile: served by L2, not the SM's non-coherent L1
        return "(*(volatile " + type(k) + "*) (" + ptr + "))";
    }

    @Override
    String barrier() {
        return "__syncthreads()";
    }

    @Override
    String floatFn(String base) {
        return base + "f";
    }

    @Override
    String fast(String name) {
        return switch (name) {
            case "fastExp" -> "__expf";
            case "fastExp2" -> "sq_fast_exp2";
            case "fastLog" -> "__logf";
            case "fastSin" -> "__sinf";
            case "fastCos" -> "__cosf";
            case "fastSqrt" -> "__fsqrt_rn";
            case "fastRsqrt" -> "rsqrtf";
            case "fastDivide" -> "__fdividef";
            default -> null;
        };
    }

    @Override
    String infinity(TypeKind k, boolean negative) {
        if (k == TypeKind.FLOAT) return "__int_as_float(" + (negative ? "(int) 0xff800000u" : "0x7f800000") + ")";
        return "__longlong_as_double(" + (negative ? "(long long) 0xfff0000000000000ULL" : "0x7ff0000000000000LL") + ")";
    }

    @Override
    String nan(TypeKind k) {
        return k == TypeKind.FLOAT ? "__int_as_float(0x7fc00000)" : "__longlong_as_double(0x7ff8000000000000LL)";
    }

    @Override
    String floatToIntBits(String x) {
        return "__float_as_int((float) (" + x + "))";
    }

    @Override
    String intBitsToFloat(String x) {
        return "__int_as_float((int) (" + x + "))";
    }

    @Override
    String doubleToLongBits(String x) {
        return "__double_as_longlong((double) (" + x + "))";
    }

    @Override
    String longBitsToDouble(String x) {
        return "__longlong_as_double((long long) (" + x + "))";
    }

    @Override
    String bitCount(TypeKind k, String x) {
        return k == TypeKind.LONG ? "__popcll((unsigned long long) (" + x + "))" : "__popc((unsigned int) (" + x + "))";
    }

    @Override
    String multiplyHigh(boolean unsigned, String a, String b) {
        return unsigned ? "((long long) __umul64hi((unsigned long long) (" + a + "), (unsigned long long) (" + b + ")))"
                : "__mul64hi((long long) (" + a + "), (long long) (" + b + "))";
    }

    @Override
    String leadingZeros(TypeKind k, String x) {
        return k == TypeKind.LONG ? "__clzll((long long) (" + x + "))" : "__clz((int) (" + x + "))";
    }

    @Override
    String atomicAdd(TypeKind k, String space, String ptr, String v) {
        if (k == TypeKind.LONG) {
            return "((long long) atomicAdd((unsigned long long*) (" + ptr + "), (unsigned long long) (" + v + ")))";
        }
        return "atomicAdd(" + ptr + ", " + v + ")";
    }

    @Override
    String atomicMinMax(boolean max, TypeKind k, String space, String ptr, String v) {
        return (max ? "atomicMax(" : "atomicMin(") + ptr + ", " + v + ")";
    }

    @Override
    String atomicCas(TypeKind k, String space, String ptr, String expected, String update) {
        if (k == TypeKind.LONG) {
            return "((long long) atomicCAS((unsigned long long*) (" + ptr + "), (unsigned long long) (" + expected
                    + "), (unsigned long long) (" + update + ")))";
        }
        return "atomicCAS(" + ptr + ", " + expected + ", " + update + ")";
    }

    @Override
    String mma884(String a, String b, String acc, String at) {
        return "sq_mma884(" + a + ", " + b + ", " + acc + "[" + at + "], " + acc + "[(" + at + ") + 1])";
    }

    @Override
    String mma1684(String a0, String a1, String b, String acc, String at) {
        return "sq_mma1684(" + a0 + ", " + a1 + ", " + b + ", " + acc + "[" + at + "], " + acc + "[(" + at + ") + 1], "
                + acc + "[(" + at + ") + 2], " + acc + "[(" + at + ") + 3])";
    }

    @Override
    String shuffle(String mode, TypeKind k, String v, String arg) {
        return "sq_shfl_" + mode + "(" + v + ", " + arg + ")";
    }

    @Override
    String subgroupAdd(TypeKind k, String v) {
        return "sq_sg_add(" + v + ")";
    }

    @Override
    boolean needsExchangeBuffer() {
        return false;
    }
}
