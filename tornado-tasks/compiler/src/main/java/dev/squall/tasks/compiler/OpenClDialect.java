package dev.squall.tasks.compiler;

import javax.lang.model.type.TypeKind;

/**
 * OpenCL C 1.2. Sub-group operations exchange values through a local buffer (every device has
 * one; OpenCL 1.2 has no portable shuffle), which needs work-groups of at most 1024 items, at
 * most 32 or a multiple of 32. 64-bit atomics use the cl_khr_int64 extensions; float and double
 * atomic adds are compare-and-swap loops.
 */
final class OpenClDialect extends CDialect {
    OpenClDialect() {
        commonHelpers();
        helper("sq_ntz_i", "int sq_ntz_i(int x) { return x == 0 ? 32 : 31 - clz(x & -x); }");
        helper("sq_ntz_l", "int sq_ntz_l(long x) { return x == 0 ? 64 : (int) (63 - clz(x & -x)); }");
        helper("sq_hob_i", "int sq_hob_i(int x) { return x == 0 ? 0 : (int) (0x80000000u >> clz(x)); }");
        helper("sq_hob_l", "long sq_hob_l(long x) { return x == 0 ? 0 : (long) (0x8000000000000000UL >> clz(x)); }");
        for (String sp : new String[] {"global", "local"}) {
            helper("sq_atomic_add_f_" + sp, """
                    float sq_atomic_add_f_SP(volatile __SP float* p, float v) {
                        int old = as_int(*p), seen;
                        do {
                            seen = old;
                            old = atomic_cmpxchg((volatile __SP int*) p, seen, as_int(as_float(seen) + v));
                        } while (old != seen);
                        return as_float(old);
                    }""".replace("SP", sp));
            helper("sq_atomic_add_d_" + sp, """
                    double sq_atomic_add_d_SP(volatile __SP double* p, double v) {
                        long old = as_long(*p), seen;
                        do {
                            seen = old;
                            old = atom_cmpxchg((volatile __SP long*) p, seen, as_long(as_double(seen) + v));
                        } while (old != seen);
                        return as_double(old);
                    }""".replace("SP", sp));
        }
        helper("sq_lid", "int sq_lid(void) { return (int) (get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))); }");
        for (String[] t : new String[][] {{"i", "int"}, {"l", "long"}, {"f", "float"}, {"d", "double"}}) {
            helper("sq_async_copy_" + t[0], "void sq_async_copy_" + t[0] + "(__local " + t[1] + "* dst, __global const " + t[1] + "* src, long n) {\n"
                    + "    long step = (long) (get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
                    + "    for (long i = sq_lid(); i < n; i += step) dst[i] = src[i];\n}", "sq_lid");
        }
        // asyncCopyTile: a plain copy, each work-item its share of the elements (asyncWaitGroups and the barrier after it
        // order it like the CUDA cp.async copy)
        for (String[] t : new String[][] {{"i", "int"}, {"l", "long"}, {"f", "float"}, {"d", "double"}}) {
            helper("sq_async_tile_" + t[0], "void sq_async_tile_" + t[0] + "(__local " + t[1] + "* dst, int dld, __global const " + t[1]
                    + "* src, long sld, int rows, int cols, int vrows, int vcols) {\n"
                    + "    int step = (int) (get_local_size(0) * get_local_size(1) * get_local_size(2)), n = rows * cols;\n"
                    + "    for (int i = sq_lid(); i < n; i += step) {\n"
                    + "        int r = i / cols, c = i - r * cols;\n"
                    + "        dst[r * dld + c] = r < vrows && c < vcols ? src[r * sld + c] : (" + t[1] + ") 0;\n"
                    + "    }\n}", "sq_lid");
        }
        // asyncCopyChunk: this work-item's two doubles, copied at once (zero past count)
        helper("sq_async_chunk", "void sq_async_chunk(__local double* dst, __global const double* src, int count) {\n"
                + "    dst[0] = count > 0 ? src[0] : 0.0;\n    dst[1] = count > 1 ? src[1] : 0.0;\n}");
        helper("sq_sgsize", "int sq_sgsize(void) { int n = (int) (get_local_size(0) * get_local_size(1) * get_local_size(2)); return n < 32 ? n : 32; }");
        helper("sq_sglane", "int sq_sglane(void) { return sq_lid() % sq_sgsize(); }", "sq_lid", "sq_sgsize");
        // NVIDIA (the runtime defines SQ_NV_PTX there): a warp shuffle of both 32-bit halves, in inline PTX;
        // elsewhere every item of the work-group publishes through local memory, then reads lane src of its sub-group
        helper("sq_xchg", """
                #ifdef SQ_NV_PTX
                int sq_shfl_idx(int v, int src) {
                    int n = sq_sgsize(), r;
                    uint mask = n == 32 ? 0xffffffffu : ((1u << n) - 1u);
                    __asm__ __volatile__("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(r) : "r"(v), "r"(src), "r"(mask));
                    return r;
                }
                long sq_xchg(__local long* xc, long bits, int src) {
                    uint lo = (uint) sq_shfl_idx((int) bits, src), hi = (uint) sq_shfl_idx((int) (bits >> 32), src);
                    return (long) (((ulong) hi << 32) | lo);
                }
                #else
                long sq_xchg(__local long* xc, long bits, int src) {
                    int me = sq_lid();
                    barrier(CLK_LOCAL_MEM_FENCE);
                    xc[me] = bits;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    return xc[me - me % sq_sgsize() + src];
                }
                #endif""", "sq_lid", "sq_sgsize");
        // mma8x8x4: NVIDIA's OpenCL shuffles the fragments (PTX shfl through sq_xchg); elsewhere one round through
        // local memory for A and one for B (four barriers instead of the 24 of twelve exchanges, which PoCL compiles
        // far faster when a kernel unrolls many of these)
        helper("sq_mma884", """
                void sq_mma884(__local long* xc, double a, double b, double* d) {
                    int lane = sq_sglane(), row = lane >> 2, col = (lane & 3) * 2;
                    double av[4], b0[4], b1[4];
                #ifdef SQ_NV_PTX
                    for (int k = 0; k < 4; k++) {
                        av[k] = as_double(sq_xchg(xc, as_long(a), row * 4 + k));
                        b0[k] = as_double(sq_xchg(xc, as_long(b), col * 4 + k));
                        b1[k] = as_double(sq_xchg(xc, as_long(b), (col + 1) * 4 + k));
                    }
                #else
                    int me = sq_lid(), base = me - lane;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    xc[me] = as_long(a);
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (int k = 0; k < 4; k++) av[k] = as_double(xc[base + row * 4 + k]);
                    barrier(CLK_LOCAL_MEM_FENCE);
                    xc[me] = as_long(b);
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (int k = 0; k < 4; k++) {
                        b0[k] = as_double(xc[base + col * 4 + k]);
                        b1[k] = as_double(xc[base + (col + 1) * 4 + k]);
                    }
                #endif
                    for (int k = 0; k < 4; k++) {
                        d[0] = fma(av[k], b0[k], d[0]);
                        d[1] = fma(av[k], b1[k], d[1]);
                    }
                }""", "sq_xchg", "sq_sglane", "sq_lid");
        helper("sq_mma1684", """
                void sq_mma1684(__local long* xc, double a0, double a1, double b, double* d) {
                    sq_mma884(xc, a0, b, d);
                    sq_mma884(xc, a1, b, d + 2);
                }""", "sq_mma884");
        // {letter, type, value to long bits, "(" opener of the way back, closer}
        String[][] kinds = {{"i", "int", "(long) v", "(int) (", ")"}, {"l", "long", "v", "(", ")"},
                {"f", "float", "(long) as_int(v)", "as_float((int) ", ")"}, {"d", "double", "as_long(v)", "as_double(", ")"}};
        for (String[] k : kinds) {
            String back = k[3] + "sq_xchg(xc, " + k[2] + ", SRC)" + k[4];
            helper("sq_shfl_down_" + k[0], k[1] + " sq_shfl_down_" + k[0] + "(__local long* xc, " + k[1] + " v, int d) {\n"
                    + "    int lane = sq_sglane(), s = lane + d;\n"
                    + "    return " + back.replace("SRC", "s < sq_sgsize() ? s : lane") + ";\n}", "sq_xchg", "sq_sglane");
            helper("sq_shfl_idx_" + k[0], k[1] + " sq_shfl_idx_" + k[0] + "(__local long* xc, " + k[1] + " v, int src) {\n"
                    + "    return " + back.replace("SRC", "src") + ";\n}", "sq_xchg");
            helper("sq_shfl_xor_" + k[0], k[1] + " sq_shfl_xor_" + k[0] + "(__local long* xc, " + k[1] + " v, int m) {\n"
                    + "    return " + back.replace("SRC", "sq_sglane() ^ m") + ";\n}", "sq_xchg", "sq_sglane");
            helper("sq_sg_add_" + k[0], k[1] + " sq_sg_add_" + k[0] + "(__local long* xc, " + k[1] + " v) {\n"
                    + "    for (int m = sq_sgsize() / 2; m > 0; m >>= 1) v += sq_shfl_xor_" + k[0] + "(xc, v, m);\n"
                    + "    return v;\n}", "sq_shfl_xor_" + k[0]);
        }
    }

    @Override
    String backend() {
        return "opencl";
    }

    @Override
    String preamble() {
        return """
                #ifdef cl_khr_fp64
                #pragma OPENCL EXTENSION cl_khr_fp64 : enable
                #endif
                #ifdef cl_khr_int64_base_atomics
                #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
                #endif
                #ifdef cl_khr_int64_extended_atomics
                #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
                #endif
                """;
    }

    @Override
    String kernelPrefix() {
        return "__kernel void";
    }

    @Override
    String functionPrefix() {
        return "";
    }

    @Override
    String arrayParam(String elemC, boolean readOnly, boolean restrict, String name) {
        return "__global " + (readOnly ? "const " : "") + elemC + "* " + (restrict ? "restrict " : "") + name;
    }

    @Override
    String arrayParameter(String elemC, String space, String name) {
        return (space.equals("local") ? "__local " : space.equals("global") ? "__global " : "") + elemC + "* " + name;
    }

    @Override
    String pointerType(String elemC) {
        return "__global " + elemC + "*";
    }

    @Override
    String localArray(String elemC, String name, long size) {
        return "__local " + elemC + " " + name + "[" + size + "];";
    }

    @Override
    String longType() {
        return "long";
    }

    @Override
    String byteType() {
        return "char";
    }

    @Override
    String unsignedOf(TypeKind k) {
        return k == TypeKind.LONG ? "ulong" : "uint";
    }

    @Override
    String longSuffix() {
        return "L";
    }

    @Override
    String globalId(int d) {
        return "((int) get_global_id(" + d + "))";
    }

    @Override
    String localId(int d) {
        return "((int) get_local_id(" + d + "))";
    }

    @Override
    String groupId(int d) {
        return "((int) get_group_id(" + d + "))";
    }

    @Override
    String globalSize(int d) {
        return "((int) get_global_size(" + d + "))";
    }

    @Override
    String localSize(int d) {
        return "((int) get_local_size(" + d + "))";
    }

    @Override
    String loopGlobalId(int d) {
        return "((long) get_global_id(" + d + "))";
    }

    @Override
    String loopGlobalSize(int d) {
        return "((long) get_global_size(" + d + "))";
    }

    @Override
    String globalFence() {
        return "mem_fence(CLK_GLOBAL_MEM_FENCE)";
    }

    @Override
    String volatileElement(TypeKind k, String ptr) {
        return "(*(volatile __global " + type(k) + "*) (" + ptr + "))";
    }

    @Override
    String barrier() {
        return "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)";
    }

    @Override
    String floatFn(String base) {
        return base;
    }

    @Override
    String fast(String name) {
        return switch (name) {
            case "fastExp" -> "native_exp";
            case "fastExp2" -> "native_exp2";
            case "fastLog" -> "native_log";
            case "fastSin" -> "native_sin";
            case "fastCos" -> "native_cos";
            case "fastSqrt" -> "native_sqrt";
            case "fastRsqrt" -> "native_rsqrt";
            case "fastDivide" -> "native_divide";
            default -> null;
        };
    }

    @Override
    String infinity(TypeKind k, boolean negative) {
        return "(" + (negative ? "-" : "") + (k == TypeKind.FLOAT ? "INFINITY" : "(double) INFINITY") + ")";
    }

    @Override
    String nan(TypeKind k) {
        return k == TypeKind.FLOAT ? "NAN" : "((double) NAN)";
    }

    @Override
    String floatToIntBits(String x) {
        return "as_int((float) (" + x + "))";
    }

    @Override
    String intBitsToFloat(String x) {
        return "as_float((int) (" + x + "))";
    }

    @Override
    String doubleToLongBits(String x) {
        return "as_long((double) (" + x + "))";
    }

    @Override
    String longBitsToDouble(String x) {
        return "as_double((long) (" + x + "))";
    }

    @Override
    String bitCount(TypeKind k, String x) {
        return "((int) popcount((" + type(k) + ") (" + x + ")))";
    }

    @Override
    String multiplyHigh(boolean unsigned, String a, String b) {
        return unsigned ? "((long) mul_hi((ulong) (" + a + "), (ulong) (" + b + ")))" : "mul_hi((long) (" + a + "), (long) (" + b + "))";
    }

    @Override
    String leadingZeros(TypeKind k, String x) {
        return "((int) clz((" + type(k) + ") (" + x + ")))";
    }

    @Override
    String atomicAdd(TypeKind k, String space, String ptr, String v) {
        return switch (k) {
            case INT -> "atomic_add(" + ptr + ", " + v + ")";
            case LONG -> "atom_add(" + ptr + ", " + v + ")";
            case FLOAT -> "sq_atomic_add_f_" + space + "(" + ptr + ", " + v + ")";
            default -> "sq_atomic_add_d_" + space + "(" + ptr + ", " + v + ")";
        };
    }

    @Override
    String atomicMinMax(boolean max, TypeKind k, String space, String ptr, String v) {
        return (k == TypeKind.INT ? "atomic_" : "atom_") + (max ? "max" : "min") + "(" + ptr + ", " + v + ")";
    }

    @Override
    String atomicCas(TypeKind k, String space, String ptr, String expected, String update) {
        return (k == TypeKind.INT ? "atomic_cmpxchg(" : "atom_cmpxchg(") + ptr + ", " + expected + ", " + update + ")";
    }

    @Override
    String mma884(String a, String b, String acc, String at) {
        return "sq_mma884(sq_xchg_buf, " + a + ", " + b + ", &" + acc + "[" + at + "])";
    }

    @Override
    String mma1684(String a0, String a1, String b, String acc, String at) {
        return "sq_mma1684(sq_xchg_buf, " + a0 + ", " + a1 + ", " + b + ", &" + acc + "[" + at + "])";
    }

    @Override
    String shuffle(String mode, TypeKind k, String v, String arg) {
        return "sq_shfl_" + mode + "_" + letter(k) + "(sq_xchg_buf, " + v + ", " + arg + ")";
    }

    @Override
    String subgroupAdd(TypeKind k, String v) {
        return "sq_sg_add_" + letter(k) + "(sq_xchg_buf, " + v + ")";
    }

    /**
     * Each work-item copies its share of the run (elements lid, lid + group size, ...); the kernel's barrier after
     * asyncWait publishes them. async_work_group_copy would fit the group-wide definition too, but PoCL 5.0 cannot
     * link wait_group_events on a private event (undefined symbol _cl_wait_group_events, and the process aborts),
     * and PoCL's own async_work_group_copy is a blocking copy by one work-item.
     */
    @Override
    String asyncCopy(TypeKind k, String dst, String src, String count) {
        return "sq_async_copy_" + letter(k) + "(" + dst + ", " + src + ", (long) (" + count + "))";
    }

    @Override
    String asyncWait() {
        return "((void) 0)";
    }

    /**
     * A loop that synchronises the work-group is unrolled on NVIDIA only: elsewhere each sub-group operation is
     * exchanges through local memory between barriers, and compilers that run work-groups as loops between barriers
     * (PoCL) take minutes, or overflow their stack, on a body with thousands of them (a fully unrolled panel of
     * tensor-core steps: 128 {@code mma16x8x4} are 1,024 barriers).
     */
    @Override
    String unrollPragma(long factor, boolean collective) {
        String pragma = super.unrollPragma(factor, collective);
        return collective ? "#ifdef SQ_NV_PTX\n" + pragma + "\n#endif" : pragma;
    }

    @Override
    String exchangeBuffer() {
        // warp shuffles need no buffer; the helpers' signatures keep the parameter
        return "#ifdef SQ_NV_PTX\n    __local long* sq_xchg_buf = 0;\n#else\n    __local long sq_xchg_buf[1024];\n#endif\n";
    }

    @Override
    boolean needsExchangeBuffer() {
        return true;
    }
}
