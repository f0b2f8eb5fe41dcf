package dev.squall.tasks.compiler;

import javax.lang.model.type.TypeKind;
import java.util.*;

/**
 * What differs between the OpenCL C and CUDA C the translator writes: qualifiers, type names,
 * built-ins, atomics, sub-group operations, and the helper functions that give Java's meaning
 * where C's differs. Helpers are emitted only when a program uses them.
 */
abstract class CDialect {
    /** "opencl" or "cuda". */
    abstract String backend();

    abstract String preamble();

    abstract String kernelPrefix();

    /** What follows {@link #kernelPrefix()} for a kernel with {@code @LaunchBounds} (leading space), or "". */
    String launchBounds(int maxGroupSize, int minGroupsPerUnit) {
        return "";
    }

    /** Qualifier of device functions and helpers ("" in OpenCL, "__device__" in CUDA). */
    abstract String functionPrefix();

    abstract String arrayParam(String elemC, boolean readOnly, boolean restrict, String name);

    /** A device-function parameter for a private or local array ({@code space} "private" or "local"). */
    abstract String arrayParameter(String elemC, String space, String name);

    /** A plain (non-const, unrestricted) pointer type for casts at device-function calls. */
    abstract String pointerType(String elemC);

    abstract String localArray(String elemC, String name, long size);

    abstract String longType();

    abstract String byteType();

    abstract String unsignedOf(TypeKind k);

    abstract String longSuffix();

    String type(TypeKind k) {
        return switch (k) {
            case BOOLEAN -> "bool";
            case BYTE -> byteType();
            case SHORT -> "short";
            case INT -> "int";
            case LONG -> longType();
            case FLOAT -> "float";
            case DOUBLE -> "double";
            case VOID -> "void";
            default -> throw new IllegalArgumentException("no C type for " + k);
        };
    }

    /** Kernel parameter type of a scalar: boolean travels as int. */
    String paramType(TypeKind k) {
        return k == TypeKind.BOOLEAN ? "int" : type(k);
    }

    // ---- ids and sizes: int for KernelContext fields, 64-bit for loop indices ----

    abstract String globalId(int d);

    abstract String localId(int d);

    abstract String groupId(int d);

    abstract String globalSize(int d);

    abstract String localSize(int d);

    abstract String loopGlobalId(int d);

    abstract String loopGlobalSize(int d);

    abstract String barrier();

    /** Orders global writes device-wide (no waiting). */
    abstract String globalFence();

    // ---- maths ----

    /** A float function by its C99 double name: sqrt becomes sqrtf in CUDA; OpenCL overloads. */
    abstract String floatFn(String base);

    abstract String fast(String kernelMathName);

    abstract String infinity(TypeKind k, boolean negative);

    abstract String nan(TypeKind k);

    abstract String floatToIntBits(String x);

    abstract String intBitsToFloat(String x);

    abstract String doubleToLongBits(String x);

    abstract String longBitsToDouble(String x);

    abstract String bitCount(TypeKind k, String x);

    /** High 64 bits of the 128-bit product of two longs (Math.multiplyHigh / unsignedMultiplyHigh). */
    abstract String multiplyHigh(boolean unsigned, String a, String b);

    abstract String leadingZeros(TypeKind k, String x);

    /** The element at {@code ptr} of a global array as a volatile lvalue: every read and write goes to memory, device-coherent. */
    abstract String volatileElement(TypeKind k, String ptr);

    // ---- atomics; space is "global" or "local"; each returns the old value ----

    abstract String atomicAdd(TypeKind k, String space, String ptr, String v);

    abstract String atomicMinMax(boolean max, TypeKind k, String space, String ptr, String v);

    abstract String atomicCas(TypeKind k, String space, String ptr, String expected, String update);

    // ---- sub-groups; OpenCL passes the kernel's exchange buffer ----

    /** A sub-group shuffle; mode is "down", "xor" or "idx" (from a given lane). */
    abstract String shuffle(String mode, TypeKind k, String v, String arg);

    abstract String subgroupAdd(TypeKind k, String v);

    /** The call of helper sq_mma884 that updates {@code acc[at]} and {@code acc[at + 1]} (see KernelContext.mma8x8x4). */
    abstract String mma884(String a, String b, String acc, String at);

    /** The call of helper sq_mma1684 that updates {@code acc[at .. at + 3]} (see KernelContext.mma16x8x4). */
    abstract String mma1684(String a0, String a1, String b, String acc, String at);

    // ---- asynchronous copies from global into local memory, by the whole work-group (KernelContext.asyncCopy) ----

    /** Starts the work-group's copy of {@code count} elements of type {@code k} from global {@code src} to local {@code dst} (pointers). */
    abstract String asyncCopy(TypeKind k, String dst, String src, String count);

    /** Waits for the copies this work-item's group has started. */
    abstract String asyncWait();

    /**
     * The line(s) before a loop with {@code @Unroll(factor)} (0: fully), whose body synchronises the work-group
     * ({@code collective}: barriers or sub-group operations, also through device functions).
     */
    String unrollPragma(long factor, boolean collective) {
        return factor == 0 ? "#pragma unroll" : "#pragma unroll " + factor;
    }

    /** A local-memory array of a kernel: element C type, name, elements, bytes per element. */
    record LocalArray(String elemC, String name, long size, int elemBytes) {
    }

    /** Bytes of a primitive kernel type. */
    static int bytes(TypeKind k) {
        return switch (k) {
            case LONG, DOUBLE -> 8;
            case INT, FLOAT -> 4;
            case SHORT, CHAR -> 2;
            default -> 1;
        };
    }

    /** Declarations of a kernel's local arrays, at the top of its body (one {@link #localArray} line each). */
    String localArrays(String kernel, List<LocalArray> arrays) {
        StringBuilder sb = new StringBuilder();
        for (LocalArray a : arrays) sb.append("    ").append(localArray(a.elemC(), a.name(), a.size())).append('\n');
        return sb.toString();
    }

    /** File-scope text written before a kernel with these local arrays (nothing, but on CUDA past the static limit). */
    String localArraysPreamble(String kernel, List<LocalArray> arrays) {
        return "";
    }

    /** Closes this work-item's group of tile copies ({@code KernelContext.asyncCommit}); a no-op where copies are synchronous. */
    String asyncCommit() {
        return "((void) 0)";
    }

    /** Waits until at most {@code pending} committed copy groups are in flight; a no-op where copies are synchronous. */
    String asyncWaitGroups(int pending) {
        return "((void) 0)";
    }

    /** Declaration of the kernel's sub-group exchange buffer (when {@link #needsExchangeBuffer()}). */
    String exchangeBuffer() {
        return "";
    }

    /** Whether sub-group operations need a local exchange buffer declared in the kernel. */
    abstract boolean needsExchangeBuffer();

    static String letter(TypeKind k) {
        return switch (k) {
            case INT -> "i";
            case LONG -> "l";
            case FLOAT -> "f";
            case DOUBLE -> "d";
            default -> throw new IllegalArgumentException(k.toString());
        };
    }

    // ---- helpers ----

    private final Map<String, String> helpers = new LinkedHashMap<>();
    private final Map<String, List<String>> deps = new HashMap<>();

    /** Registers a helper; $F is the function qualifier, $L the long type, $UL unsigned long, $U unsigned int, $S the long literal suffix. */
    protected void helper(String name, String code, String... dependsOn) {
        helpers.put(name, code.replace("$F", functionPrefix().isEmpty() ? "" : functionPrefix() + " ")
                .replace("$UL", unsignedOf(TypeKind.LONG)).replace("$U ", unsignedOf(TypeKind.INT) + " ")
                .replace("$L", longType()).replace("$S", longSuffix()));
        deps.put(name, List.of(dependsOn));
    }

    boolean hasHelper(String name) {
        return helpers.containsKey(name);
    }

    /** The code of the used helpers and what they need, in registration order. */
    String helperCode(Set<String> used) {
        Set<String> all = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(used);
        while (!todo.isEmpty()) {
            String h = todo.pop();
            if (!helpers.containsKey(h)) throw new IllegalStateException("unknown helper " + h);
            if (all.add(h)) todo.addAll(deps.get(h));
        }
        StringBuilder sb = new StringBuilder();
        for (var e : helpers.entrySet()) if (all.contains(e.getKey())) sb.append(e.getValue().strip()).append('\n');
        return sb.toString();
    }

    /** Helpers both dialects share (Java semantics in portable C). */
    protected void commonHelpers() {
        helper("sq_min_i", "$Fint sq_min_i(int a, int b) { return a < b ? a : b; }");
        helper("sq_max_i", "$Fint sq_max_i(int a, int b) { return a > b ? a : b; }");
        helper("sq_min_l", "$F$L sq_min_l($L a, $L b) { return a < b ? a : b; }");
        helper("sq_max_l", "$F$L sq_max_l($L a, $L b) { return a > b ? a : b; }");
        helper("sq_abs_i", "$Fint sq_abs_i(int a) { return a < 0 ? -a : a; }");
        helper("sq_abs_l", "$F$L sq_abs_l($L a) { return a < 0 ? -a : a; }");
        // Java's Math.round: floor(x + 1/2), NaN to 0, saturating
        helper("sq_round_d", """
                $F$L sq_round_d(double x) {
                    if (x != x) return 0;
                    double r = floor(x + 0.5);
                    if (r >= 9.223372036854775807e18) return 9223372036854775807$S;
                    if (r <= -9.223372036854775808e18) return -9223372036854775807$S - 1;
                    return ($L) r;
                }""");
        helper("sq_round_f", """
                $Fint sq_round_f(float x) {
                    if (x != x) return 0;
                    float r = floor(x + 0.5f);
                    if (r >= 2147483647.0f) return 2147483647;
                    if (r <= -2147483648.0f) return -2147483647 - 1;
                    return (int) r;
                }""");
        helper("sq_signum_d", "$Fdouble sq_signum_d(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : x); }");
        helper("sq_signum_f", "$Ffloat sq_signum_f(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); }");
        helper("sq_lob_i", "$Fint sq_lob_i(int x) { return x & -x; }");
        helper("sq_lob_l", "$F$L sq_lob_l($L x) { return x & -x; }");
        helper("sq_rotl_i", "$Fint sq_rotl_i(int x, int s) { return (int) ((($U ) x << (s & 31)) | (($U ) x >> ((32 - (s & 31)) & 31))); }");
        helper("sq_rotr_i", "$Fint sq_rotr_i(int x, int s) { return (int) ((($U ) x >> (s & 31)) | (($U ) x << ((32 - (s & 31)) & 31))); }");
        helper("sq_rotl_l", "$F$L sq_rotl_l($L x, int s) { return ($L) ((($UL) x << (s & 63)) | (($UL) x >> ((64 - (s & 63)) & 63))); }");
        helper("sq_rotr_l", "$F$L sq_rotr_l($L x, int s) { return ($L) ((($UL) x >> (s & 63)) | (($UL) x << ((64 - (s & 63)) & 63))); }");
        // trip counts of parallel loops, as the JVM launcher computes them
        helper("sq_trip_lt", "$F$L sq_trip_lt($L start, $L end, $L step) { return end > start ? (end - start + step - 1) / step : 0; }");
        helper("sq_trip_le", "$F$L sq_trip_le($L start, $L end, $L step) { return end >= start ? (end - start) / step + 1 : 0; }");
    }
}
