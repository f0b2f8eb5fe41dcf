package dev.squall.tasks.compiler;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.spi.GeneratedKernels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import javax.tools.Diagnostic;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Compiles small classes through javac with {@link KernelProcessor} and checks that code outside
 * the kernel language (LANGUAGE.md) is an error at the offending line, with a message that says
 * what to do instead; and that valid kernels produce every generated artefact.
 */
class KernelRejectionTest {
    /** Marks the line where the error is expected, so cases need no hard-coded line numbers. */
    private static final String MARK = "// <-";

    // ---- rejections ----

    static Stream<Arguments> rejections() {
        List<Arguments> cases = new ArrayList<>();

        // -- element checks (KernelProcessor.checkOwner / checkDeviceFunction) --
        cases.add(reject("NonStaticKernel", "must be static", """
                @Kernel
                public void k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("NonVoidKernel", "returns void", """
                @Kernel
                public static int k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                    return 0;
                }
                """));
        cases.add(reject("PrivateKernel", "must not be private", """
                @Kernel
                private static void k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("OverloadedKernel", "declared twice", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }

                @Kernel
                public static void k(LongArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("GenericKernel", "cannot be generic", """
                @Kernel
                public static <T> void k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("KernelAndDeviceFunction", "either a @Kernel or a @DeviceFunction", """
                @Kernel
                @DeviceFunction
                public static void k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("JavaArrayParameter", "wrap Java arrays with DoubleArray.fromArray", """
                @Kernel
                public static void k(
                        double[] a, // <-
                        int n) {
                    for (@Parallel int i = 0; i < n; i++) a[i] = i;
                }
                """));
        cases.add(reject("CharParameter", "kernels take primitives (not char)", """
                @Kernel
                public static void k(IntArray a,
                        char c, // <-
                        int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, c);
                }
                """));
        cases.add(reject("ObjectParameter", "has type java.lang.Object", """
                @Kernel
                public static void k(IntArray a,
                        Object o, // <-
                        int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("ContextNotFirst", "KernelContext must be the first parameter", """
                @Kernel
                public static void k(IntArray a,
                        KernelContext ctx) { // <-
                    a.set(ctx.globalIdx, 1);
                }
                """));
        cases.add(reject("PrivateOwnerClass", "must not be private", """
                private static class Inner { // <-
                    @Kernel
                    public static void k(IntArray a, int n) {
                        for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                    }
                }
                """));
        cases.add(reject("NonStaticDeviceFunction", "a @DeviceFunction must be static", """
                @DeviceFunction
                int twice(int x) { // <-
                    return 2 * x;
                }
                """));
        cases.add(reject("PrivateDeviceFunction", "a @DeviceFunction must not be private", """
                @DeviceFunction
                private static int twice(int x) { // <-
                    return 2 * x;
                }
                """));
        cases.add(reject("DeviceFunctionReturnsObject", "returns a primitive or void", """
                @DeviceFunction
                static Object make(int x) { // <-
                    return null;
                }
                """));
        cases.add(reject("DeviceFunctionObjectArray", "private or local arrays of primitives", """
                @DeviceFunction
                static double first(DoubleArray[] xs) { // <-
                    return 0;
                }
                """));
        cases.add(reject("DeviceFunctionArrayInTwoAddressSpaces", "here and local memory elsewhere", """
                @DeviceFunction
                static double head(double[] a) {
                    return a[0];
                }

                @Kernel
                public static void k(KernelContext ctx, DoubleArray out) {
                    double[] shared = ctx.allocateDoubleLocalArray(32);
                    double[] mine = new double[4];
                    shared[ctx.localIdx] = 1.0;
                    ctx.localBarrier();
                    out.set(ctx.globalIdx, head(shared) + head(mine)); // <-
                }
                """));
        cases.add(reject("LengthOfArrayParameter", "length of an array parameter is not known", """
                @DeviceFunction
                static double last(double[] a) {
                    return a[a.length - 1]; // <-
                }

                @Kernel
                public static void k(DoubleArray out, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[] w = new double[] {1.0, 2.0};
                        out.set(i, last(w));
                    }
                }
                """));

        // -- the parallel loop nest (LoopNest) --
        cases.add(reject("NoParallelLoopNoContext", "no KernelContext parameter and no @Parallel loop", """
                @Kernel
                public static void k(IntArray a, int n) { // <-
                    for (int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("ParallelLoopInsideIf", "must be a top-level statement", """
                @Kernel
                public static void k(IntArray a, int n) {
                    if (n > 0) {
                        for (@Parallel int i = 0; i < n; i++) a.set(i, i); // <-
                    }
                }
                """));
        cases.add(reject("TwoParallelNests", "split this loop into a second kernel", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                    for (@Parallel int i = 0; i < n; i++) a.set(i, 2 * i); // <-
                }
                """));
        cases.add(reject("StatementAfterNest", "statements after the @Parallel loop nest", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                    a.set(0, 7); // <-
                }
                """));
        cases.add(reject("NotEqualsCondition", "must be i < END or i <= END", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i != n; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("FloatLoopVariable", "is an int or a long", """
                @Kernel
                public static void k(FloatArray a, int n) {
                    for (@Parallel float f = 0; f < n; f++) a.set((int) f, f); // <-
                }
                """));
        cases.add(reject("MultiplyingUpdate", "must be i++ or i += STEP", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 1; i < n; i *= 2) a.set(i, i); // <-
                }
                """));
        cases.add(reject("ZeroStep", "must be positive", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i += 0) a.set(i, i); // <-
                }
                """));
        cases.add(reject("ReturnInParallelLoop", "no return inside a @Parallel loop", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        if (i == 3) return; // <-
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("BreakInParallelLoop", "no break out of a @Parallel loop", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        if (i == 3) break; // <-
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("FourNestedParallelLoops", "at most 3 nested @Parallel loops", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        for (@Parallel int j = 0; j < n; j++) {
                            for (@Parallel int l = 0; l < n; l++) {
                                for (@Parallel int m = 0; m < n; m++) { // <-
                                    a.set(i + j + l + m, 1);
                                }
                            }
                        }
                    }
                }
                """));
        cases.add(reject("TwoInnerParallelLoops", "only one @Parallel loop may sit directly", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        for (@Parallel int j = 0; j < n; j++) a.set(i + j, 1);
                        for (@Parallel int j = 0; j < n; j++) a.set(i + j, 2); // <-
                    }
                }
                """));
        cases.add(reject("ParallelLoopInSequentialLoop", "directly in the body of the @Parallel loop", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        for (int s = 0; s < 2; s++) {
                            for (@Parallel int j = 0; j < n; j++) a.set(i + j, s); // <-
                        }
                    }
                }
                """));
        cases.add(reject("ParallelLoopInSpmdKernel", "@Parallel loops belong to loop-parallel kernels", """
                @Kernel
                public static void k(KernelContext ctx, IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("LocalVariableBound", "is a local variable", """
                @Kernel
                public static void k(IntArray a, int n) {
                    int half = n / 2;
                    for (@Parallel int i = 0; i < half; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("MethodCallBound", "compute", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < Integer.parseInt("4"); i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("AssignedBoundParameter", "must not assign it", """
                @Kernel
                public static void k(IntArray a, int n) {
                    n = n - 1;
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("AssignedLoopVariable", "must not be assigned", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        a.set(i, i);
                        i += 1; // <-
                    }
                }
                """));

        // -- statements and expressions (CTranslator) --
        cases.add(reject("NewObject", "no objects in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        new Object(); // <-
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("Throw", "no throw in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    if (n < 0) throw new IllegalArgumentException(); // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("TryCatch", "no try/catch in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        try { // <-
                            a.set(i, 10 / i);
                        } catch (ArithmeticException e) {
                            a.set(i, 0);
                        }
                    }
                }
                """));
        cases.add(reject("StringVariable", "java.lang.String are not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    String s = "hello"; // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("CharLiteral", "char is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, 'x'); // <-
                }
                """));
        cases.add(reject("CharLocal", "char is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        char c = 65; // <-
                        a.set(i, c);
                    }
                }
                """));
        cases.add(reject("Println", "call to PrintStream.println is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        System.out.println(i); // <-
                    }
                }
                """));
        cases.add(reject("ArraysFill", "call to Arrays.fill is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        int[] t = new int[4];
                        java.util.Arrays.fill(t, 1); // <-
                        a.set(i, t[0]);
                    }
                }
                """));
        cases.add(reject("MathRandom", "Math.random is not in the kernel language", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, Math.random()); // <-
                }
                """));
        cases.add(reject("UnsupportedLongMethod", "Long.reverse is not in the kernel language", """
                @Kernel
                public static void k(LongArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, Long.reverse(i)); // <-
                }
                """));
        cases.add(reject("StringArgumentToUnknownCall", "Integer.parseInt is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, Integer.parseInt("42")); // <-
                }
                """));
        cases.add(reject("NonConstantLocalMemory", "the size of local memory must be a compile-time constant", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray a, int n) {
                    double[] t = ctx.allocateDoubleLocalArray(n); // <-
                    t[ctx.localIdx] = a.get(ctx.globalIdx);
                }
                """));
        cases.add(reject("NonConstantPrivateArray", "the size of a private array must be a compile-time constant", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[] t = new double[n]; // <-
                        a.set(i, t[0]);
                    }
                }
                """));
        cases.add(reject("ZeroSizedPrivateArray", "must be in 1..", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[] t = new double[0]; // <-
                        a.set(i, 1);
                    }
                }
                """));
        cases.add(reject("ArrayAlias", "arrays cannot be aliased", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[] t = new double[4];
                        double[] u = t; // <-
                        a.set(i, u[0]);
                    }
                }
                """));
        cases.add(reject("InstanceField", "instance field scale is not available", """
                double scale = 2;
                static final Bad HOLDER = new Bad();

                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, HOLDER.scale); // <-
                }
                """));
        cases.add(reject("NonConstantStaticField", "is not a compile-time constant", """
                static double scale = 2;

                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, scale * i); // <-
                }
                """));
        cases.add(reject("WriteStaticField", "kernels cannot write fields", """
                static int count;

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        count = i; // <-
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("WriteContextField", "KernelContext fields are read-only", """
                @Kernel
                public static void k(KernelContext ctx, IntArray a) {
                    ctx.globalIdx = 0; // <-
                    a.set(ctx.globalIdx, 1);
                }
                """));
        // a lambda needs a functional-interface variable, and that variable is what gets rejected
        cases.add(reject("LambdaVariable", "java.util.function.IntUnaryOperator are not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    java.util.function.IntUnaryOperator f = x -> x + 1; // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("EnhancedFor", "enhanced for loops", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[] t = {1, 2, 3};
                        double s = 0;
                        for (double v : t) s += v; // <-
                        a.set(i, s);
                    }
                }
                """));
        cases.add(reject("Synchronized", "no synchronized in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        synchronized (Bad.class) { // <-
                            a.set(i, i);
                        }
                    }
                }
                """));
        cases.add(reject("LabelledBreak", "no labels in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        outer: // <-
                        for (int j = 0; j < n; j++) {
                            for (int l = 0; l < n; l++) {
                                if (j * l > i) break outer;
                            }
                        }
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("Assert", "no assert in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        assert i >= 0; // <-
                        a.set(i, i);
                    }
                }
                """));
        cases.add(reject("LocalClass", "no local classes in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    class Helper { } // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("Instanceof", "no instanceof in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        boolean b = a instanceof KernelArray; // <-
                        a.set(i, b ? 1 : 0);
                    }
                }
                """));
        cases.add(reject("SwitchOnString", "switch works on int, short and byte values", """
                static final String MODE = "fast";

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        switch (MODE) { // <-
                            case "fast": a.set(i, 1); break;
                            default: a.set(i, 2);
                        }
                    }
                }
                """));
        // javac rejects this one too (primitive patterns are a preview feature); the kernel message must still be there
        cases.add(reject("SwitchOnLong", "switch works on int, short and byte values", """
                @Kernel
                public static void k(IntArray a, long n) {
                    for (@Parallel long i = 0; i < n; i++) {
                        switch (i) { // <-
                            case 1: a.set(i, 1); break;
                            default: a.set(i, 2);
                        }
                    }
                }
                """));
        cases.add(reject("SwitchOnChar", "switch works on int, short and byte values", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        switch ((char) i) { // <-
                            case 'a': a.set(i, 1); break;
                            default: a.set(i, 2);
                        }
                    }
                }
                """));
        cases.add(reject("CastToBoxed", "casts in kernels convert between numeric primitives", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        a.set(i, (Integer) i); // <-
                    }
                }
                """));
        cases.add(reject("KernelArrayLocal", "local variables of kernel array types", """
                @Kernel
                public static void k(DoubleArray a, DoubleArray b, int n) {
                    DoubleArray t = b; // <-
                    for (@Parallel int i = 0; i < n; i++) t.set(i, a.get(i));
                }
                """));
        cases.add(reject("KernelArrayHostMethod", "kernels call get, set, getSize and getSizeLong", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        a.init(0); // <-
                    }
                }
                """));
        cases.add(reject("SetOnReadOnly", "is @ReadOnly, so the kernel must not set() it", """
                @Kernel
                public static void k(@ReadOnly DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, 1.0); // <-
                }
                """));
        cases.add(reject("AtomicOnReadOnly", "atomics write it", """
                @Kernel
                public static void k(KernelContext ctx, @ReadOnly IntArray a) {
                    ctx.atomicAdd(a, 0, 1); // <-
                }
                """));
        cases.add(reject("CallsPlainMethod", "is not a @DeviceFunction", """
                static int twice(int x) {
                    return 2 * x;
                }

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, twice(i)); // <-
                }
                """));
        cases.add(reject("CallsKernel", "kernels cannot call kernels", """
                @Kernel
                public static void fill(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }

                @Kernel
                public static void k(KernelContext ctx, IntArray a, int n) {
                    if (ctx.globalIdx == 0) fill(a, n); // <-
                }
                """));
        cases.add(reject("DirectRecursion", "kernels cannot recurse", """
                @DeviceFunction
                static int fact(int x) {
                    return x <= 1 ? 1 : x * fact(x - 1); // <-
                }

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, fact(i));
                }
                """));
        cases.add(reject("MutualRecursion", "kernels cannot recurse", """
                @DeviceFunction
                static boolean even(int x) {
                    return x == 0 || odd(x - 1);
                }

                @DeviceFunction
                static boolean odd(int x) {
                    return x != 0 && even(x - 1); // <-
                }

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, even(i) ? 1 : 0);
                }
                """));
        cases.add(reject("SubgroupOpInDeviceFunction", "sub-group operations are allowed in kernels only", """
                @DeviceFunction
                static int sum(KernelContext ctx, int v) {
                    return ctx.subgroupReduceAdd(v); // <-
                }

                @Kernel
                public static void k(KernelContext ctx, IntArray a) {
                    a.set(ctx.globalIdx, sum(ctx, a.get(ctx.globalIdx)));
                }
                """));
        cases.add(reject("MmaInDeviceFunction", "sub-group operations are allowed in kernels only", """
                @DeviceFunction
                static void step(KernelContext ctx, double a, double[] acc) {
                    ctx.mma8x8x4(a, a, acc, 0); // <-
                }

                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] acc = new double[2];
                    step(ctx, x.get(ctx.globalIdx), acc);
                    x.set(ctx.globalIdx, acc[0]);
                }
                """));
        cases.add(reject("MmaIntoLocalMemory", "mma8x8x4 accumulates into a private array of the kernel", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] acc = ctx.allocateDoubleLocalArray(64);
                    ctx.mma8x8x4(x.get(ctx.globalIdx), 1.0, acc, 0); // <-
                    x.set(ctx.globalIdx, acc[0]);
                }
                """));
        cases.add(reject("Mma16IntoLocalMemory", "mma16x8x4 accumulates into a private array of the kernel", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] acc = ctx.allocateDoubleLocalArray(128);
                    ctx.mma16x8x4(x.get(ctx.globalIdx), 1.0, 2.0, acc, 0); // <-
                    x.set(ctx.globalIdx, acc[0]);
                }
                """));
        cases.add(reject("LaunchBoundsNotPositive", "@LaunchBounds needs a positive maxGroupSize", """
                @Kernel
                @LaunchBounds(maxGroupSize = 0) // <-
                public static void k(KernelContext ctx, DoubleArray x) {
                    x.set(ctx.globalIdx, 1.0);
                }
                """));
        cases.add(reject("LocalMemoryInDeviceFunction", "local memory is allocated in kernels only", """
                @DeviceFunction
                static void stage(KernelContext ctx, IntArray a) {
                    int[] t = ctx.allocateIntLocalArray(64); // <-
                    t[ctx.localIdx] = a.get(ctx.globalIdx);
                }

                @Kernel
                public static void k(KernelContext ctx, IntArray a) {
                    stage(ctx, a);
                }
                """));
        cases.add(reject("TwoDimensionalPrivateArray", "are not supported", """
                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        double[][] t = new double[2][2]; // <-
                        a.set(i, t[0][0]);
                    }
                }
                """));
        cases.add(reject("OtherClassDeviceFunction", "call to Helpers.twice is not in the kernel language", """
                static class Helpers {
                    @DeviceFunction
                    static int twice(int x) {
                        return 2 * x;
                    }
                }

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, Helpers.twice(i)); // <-
                }
                """));

        cases.add(reject("ParallelLoopInDeviceFunction", "@Parallel is only allowed on the kernel's loop nest", """
                @DeviceFunction
                static void fill(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i); // <-
                }

                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < 1; i++) fill(a, n);
                }
                """));
        cases.add(reject("CompoundShiftWithSideEffect", "split this compound assignment", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        int[] t = new int[4];
                        int j = 0;
                        t[j++] <<= 1; // <-
                        a.set(i, t[0]);
                    }
                }
                """));
        cases.add(reject("ReassignArrayParameter", "arrays cannot be reassigned", """
                @Kernel
                public static void k(IntArray a, IntArray b, int n) {
                    a = b; // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("BoxedLocal", "java.lang.Integer are not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        Integer b = i; // <-
                        a.set(i, b);
                    }
                }
                """));
        cases.add(reject("StaticArrayField", "static field TABLE is not a compile-time constant", """
                static final double[] TABLE = {1, 2};

                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, TABLE[i & 1]); // <-
                }
                """));
        cases.add(reject("ArrayExpressionToDeviceFunction", "pass kernel arrays to device functions by their parameter name", """
                @DeviceFunction
                static double first(DoubleArray x) {
                    return x.get(0);
                }

                @Kernel
                public static void k(DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        a.set(i, first(DoubleArray.fromArray(1, 2))); // <-
                    }
                }
                """));

        cases.add(reject("UnrollOnParallelLoop", "@Unroll is for sequential loops", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel @Unroll int i = 0; i < n; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("UnrollWithNegativeFactor", "@Unroll takes a constant factor", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        int s = 0;
                        for (@Unroll(-2) int j = 0; j < 4; j++) s += j; // <-
                        a.set(i, s);
                    }
                }
                """));
        // -- problems found while writing this suite, fixed in the compiler --
        cases.add(reject("SwitchExpression", "no switch expressions in kernels", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) {
                        int v = switch (i % 3) { case 0 -> 5; default -> 7; }; // <-
                        a.set(i, v);
                    }
                }
                """));
        cases.add(reject("CharLiteralWithEscape", "char is not in the kernel language", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, '\\n'); // <-
                }
                """));
        cases.add(reject("KernelNamedLikeOpenClKeyword", "means something in OpenCL C or CUDA C", """
                @Kernel
                public static void local(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("OverloadedDeviceFunction", "device function f is declared twice", """
                @DeviceFunction static int f(int x) { return x; }
                @DeviceFunction static double f(double x) { return x; } // <-
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, f(i));
                }
                """));
        cases.add(reject("ZeroStepConstant", "the step of a @Parallel loop must be positive, got 0", """
                static final int STEP = 0;
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i += STEP) a.set(i, i); // <-
                }
                """));
        cases.add(reject("ReadOnlyWrittenThroughDeviceFunction", "is @ReadOnly but device function put writes", """
                @DeviceFunction static void put(DoubleArray x, int i) { x.set(i, 1.0); }
                @Kernel
                public static void k(@ReadOnly DoubleArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) put(a, i); // <-
                }
                """));
        cases.add(reject("ContextDeviceFunctionFromLoopKernel", "which is for SPMD kernels", """
                @DeviceFunction static int id(KernelContext ctx) { return ctx.globalIdx; }
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0; i < n; i++) a.set(i, id(null)); // <-
                }
                """));
        cases.add(reject("StaticFieldAsLoopBound", "static field size is not a compile-time constant", """
                static int size = 10;
                @Kernel
                public static void k(IntArray a) {
                    for (@Parallel int i = 0; i < size; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("TwoVariablesInParallelLoop", "declares exactly one variable", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel int i = 0, j = 0; i < n; i++) a.set(i, j); // <-
                }
                """));
        // -- asynchronous copies into local memory --
        cases.add(reject("AsyncCopyIntoPrivateArray", "asyncCopy copies into local memory", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] p = new double[8];
                    ctx.asyncCopy(
                            p, // <-
                            0, x, 0, 8);
                    ctx.asyncWait();
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, p[0]);
                }
                """));
        cases.add(reject("AsyncWaitGroupsNotConstant", "asyncWaitGroups takes a constant from 0 to 7", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x, int n) {
                    double[] t = ctx.allocateDoubleLocalArray(8);
                    ctx.asyncCopyTile(t, 0, 4, x, 0, 4, 2, 4, 2, 4);
                    ctx.asyncCommit();
                    ctx.asyncWaitGroups(n); // <-
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));
        cases.add(reject("AsyncCopyTileIntoPrivateArray", "asyncCopyTile copies into local memory", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] p = new double[8];
                    ctx.asyncCopyTile(
                            p, // <-
                            0, 4, x, 0, 4, 2, 4, 2, 4);
                    ctx.asyncWait();
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, p[0]);
                }
                """));
        cases.add(reject("AsyncCopyTileNeverAwaited", "never waits for them", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] t = ctx.allocateDoubleLocalArray(8);
                    ctx.asyncCopyTile(t, 0, 4, x, 0, 4, 2, 4, 2, 4); // <-
                    ctx.asyncCommit();
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));
        cases.add(reject("AsyncCopyInDeviceFunction", "asynchronous copies are made in kernels only", """
                @DeviceFunction
                static void stage(KernelContext ctx, double[] t, DoubleArray x) {
                    ctx.asyncCopy(t, 0, x, 0, 8); // <-
                }

                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] t = ctx.allocateDoubleLocalArray(8);
                    stage(ctx, t, x);
                    ctx.asyncWait();
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));
        cases.add(reject("AsyncWaitInDeviceFunction", "awaited in kernels only", """
                @DeviceFunction
                static void await(KernelContext ctx) {
                    ctx.asyncWait(); // <-
                }

                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    await(ctx);
                }
                """));
        cases.add(reject("AsyncCopyNeverAwaited", "never waits for them", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] t = ctx.allocateDoubleLocalArray(8);
                    ctx.asyncCopy(t, 0, x, 0, 8); // <-
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));
        cases.add(reject("AsyncCopyNeverPublished", "never calls ctx.localBarrier()", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    double[] t = ctx.allocateDoubleLocalArray(8);
                    ctx.asyncCopy(t, 0, x, 0, 8); // <-
                    ctx.asyncWait();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));
        cases.add(reject("AsyncCopyElementTypesDiffer", "no suitable method found for asyncCopy", """
                @Kernel
                public static void k(KernelContext ctx, DoubleArray x) {
                    float[] t = ctx.allocateFloatLocalArray(8);
                    ctx.asyncCopy(t, 0, x, 0, 8); // <-
                    ctx.asyncWait();
                    ctx.localBarrier();
                    x.set(ctx.globalIdx, t[0]);
                }
                """));

        // annotations are matched by class: a type of the owner's own named Parallel is not Squall's @Parallel
        cases.add(reject("ForeignParallelAnnotation", "no KernelContext parameter and no @Parallel loop", """
                @interface Parallel {
                }

                @Kernel
                public static void k(IntArray a, int n) { // <-
                    for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                }
                """));
        cases.add(reject("QualifiedUnrollAnnotation", "@Unroll is for sequential loops", """
                @Kernel
                public static void k(IntArray a, int n) {
                    for (@Parallel @dev.squall.tasks.api.Unroll int i = 0; i < n; i++) a.set(i, i); // <-
                }
                """));
        cases.add(reject("KernelInLocalClass", "not in local or", """
                static void host() {
                    class Local {
                        @Kernel
                        public static void k(IntArray a, int n) { // <-
                            for (@Parallel int i = 0; i < n; i++) a.set(i, i);
                        }
                    }
                }
                """));
        return cases.stream();
    }

    /** One bad kernel: class {@code bad.Bad} holding {@code members}, rejected with {@code phrase} at the marked line. */
    private static Arguments reject(String name, String phrase, String members) {
        String src = "package bad;\n\nimport dev.squall.tasks.api.*;\n\npublic class Bad {\n" + members.indent(4) + "}\n";
        return Arguments.of(name, src, phrase);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void rejects(String name, String source, String phrase, @TempDir Path out) throws IOException {
        long line = markedLine(source);
        InProcessJavac.Result r = InProcessJavac.compile(out, "bad.Bad", source);
        assertFalse(r.ok(), () -> name + " compiled without errors\n" + r.report());
        // the error must be in the user's file: one only in the generated launcher would not point at the offending code
        boolean found = r.diagnostics().stream().anyMatch(d -> d.getKind() == Diagnostic.Kind.ERROR && d.getLineNumber() == line
                && d.getSource() != null && d.getSource().getName().endsWith("/bad/Bad.java") && InProcessJavac.message(d).contains(phrase));
        assertTrue(found, () -> name + ": expected an error at line " + line + " containing \"" + phrase + "\"\n" + r.report());
    }

    private static long markedLine(String source) {
        String[] lines = source.split("\n", -1);
        long found = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(MARK)) {
                assertEquals(-1, found, "one " + MARK + " marker per case");
                found = i + 1;
            }
        }
        assertNotEquals(-1, found, "each case marks its offending line with " + MARK);
        return found;
    }

    // ---- valid kernels ----

    private static final String GOOD = """
            package good;

            import dev.squall.tasks.api.*;

            public class Saxpy {
                static final int BLOCK = 64;

                @DeviceFunction
                static double axpy(double a, double x, double y) {
                    return a * x + y;
                }

                @Kernel
                public static void saxpy(@ReadOnly DoubleArray x, DoubleArray y, double a, int n) {
                    for (@Parallel int i = 0; i < n; i++) y.set(i, axpy(a, x.get(i), y.get(i)));
                }

                @Kernel
                public static void blockSum(KernelContext ctx, @ReadOnly DoubleArray x, DoubleArray sums) {
                    double[] part = ctx.allocateDoubleLocalArray(BLOCK);
                    part[ctx.localIdx] = x.get(ctx.globalIdx);
                    ctx.localBarrier();
                    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
                        if (ctx.localIdx < s) part[ctx.localIdx] += part[ctx.localIdx + s];
                        ctx.localBarrier();
                    }
                    if (ctx.localIdx == 0) sums.set(ctx.groupIdx, part[0]);
                }
            }
            """;

    @Test
    void validKernelsProduceEveryArtefact(@TempDir Path out) throws IOException {
        InProcessJavac.Result r = InProcessJavac.compile(out, "good.Saxpy", GOOD);
        assertTrue(r.ok(), r::report);
        assertTrue(r.diagnostics().stream().noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR), r::report);
        String cl = Files.readString(out.resolve("META-INF/squall/kernels/good.Saxpy.cl"));
        String cu = Files.readString(out.resolve("META-INF/squall/kernels/good.Saxpy.cu"));
        assertTrue(cl.contains("__kernel void saxpy"), cl);
        assertTrue(cl.contains("__kernel void blockSum"), cl);
        assertTrue(cu.contains("extern \"C\" __global__ void saxpy"), cu);
        assertTrue(cu.contains("extern \"C\" __global__ void blockSum"), cu);
        assertEquals(List.of("good.Saxpy"), Files.readAllLines(out.resolve("META-INF/squall/kernels.idx")));
        assertTrue(Files.isRegularFile(out.resolve("good/Saxpy_SquallKernels.class")));
    }

    @Test
    void memberClassArtefactsUseTheBinaryName(@TempDir Path out) throws IOException {
        String src = """
                package good;

                import dev.squall.tasks.api.*;

                public class Outer {
                    public static class Inner {
                        @Kernel
                        public static void fill(IntArray a, int v) {
                            for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, v);
                        }
                    }
                }
                """;
        InProcessJavac.Result r = InProcessJavac.compile(out, "good.Outer", src);
        assertTrue(r.ok(), r::report);
        assertTrue(Files.readString(out.resolve("META-INF/squall/kernels/good.Outer$Inner.cl")).contains("__kernel void fill"));
        assertTrue(Files.readString(out.resolve("META-INF/squall/kernels/good.Outer$Inner.cu")).contains("extern \"C\" __global__ void fill"));
        assertEquals(List.of("good.Outer$Inner"), Files.readAllLines(out.resolve("META-INF/squall/kernels.idx")));
        assertTrue(Files.isRegularFile(out.resolve("good/Outer_Inner_SquallKernels.class")));
    }

    /** The generated JVM launcher is real code: load it and run the loop kernel over two chunks. */
    @Test
    void generatedLauncherRunsLoopKernel(@TempDir Path out) throws Exception {
        InProcessJavac.Result r = InProcessJavac.compile(out, "good.Saxpy", GOOD);
        assertTrue(r.ok(), r::report);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
            GeneratedKernels gk = (GeneratedKernels) loader.loadClass("good.Saxpy_SquallKernels").getDeclaredConstructor().newInstance();
            assertEquals("good.Saxpy", gk.ownerClass());
            DoubleArray x = DoubleArray.fromArray(1, 2, 3, 4, 5);
            DoubleArray y = DoubleArray.fromArray(10, 20, 30, 40, 50);
            Object[] args = {x, y, 2.0, 5};
            assertArrayEquals(new long[] {5}, gk.tripCounts("saxpy", args));
            gk.runRange("saxpy", args, 0, 2);
            gk.runRange("saxpy", args, 2, 5);
            assertArrayEquals(new double[] {12, 24, 36, 48, 60}, y.toHeapArray());
        }
    }

    /** One fp64 source with @Fp32Variant: the twin's kernels compute in float on the JVM and are translated to float C. */
    @Test
    void fp32VariantIsGeneratedTranslatedAndRuns(@TempDir Path out) throws Exception {
        String src = """
                package good;

                import dev.squall.tasks.api.*;

                @Fp32Variant("NormsF32")
                public final class NormsF64 {
                    static final double HALF = 0.5;

                    @DeviceFunction
                    static double sq(double v) { return v * v; }

                    @Kernel
                    public static void scaledRoot(@ReadOnly DoubleArray x, DoubleArray y, double a, int n) {
                        for (@Parallel int i = 0; i < n; i++) y.set(i, a * Math.sqrt(sq(x.get(i))) + HALF + Math.cbrt(8.0));
                    }

                    @Kernel
                    public static void blockMax(KernelContext ctx, DoubleArray x, DoubleArray out) {
                        double[] t = ctx.allocateDoubleLocalArray(64);
                        t[ctx.localIdx] = x.get(ctx.globalIdx);
                        ctx.localBarrier();
                        if (ctx.localIdx == 0) {
                            double m = -Double.MAX_VALUE;
                            for (@Unroll(2) int k = 0; k < ctx.localGroupSizeX; k++) m = Math.max(m, t[k]);
                            out.set(ctx.groupIdx, m);
                        }
                    }
                }
                """;
        InProcessJavac.Result r = InProcessJavac.compile(out, "good.NormsF64", src);
        assertTrue(r.ok(), r::report);
        String cl = Files.readString(out.resolve("META-INF/squall/kernels/good.NormsF32.cl"));
        assertTrue(cl.contains("__global const float* restrict x") && cl.contains("__local float t[64]") && !cl.contains("double "), cl);
        assertTrue(Files.readString(out.resolve("META-INF/squall/kernels.idx")).contains("good.NormsF32"));
        assertTrue(cl.contains("#pragma unroll 2"), "the twin keeps @Unroll: " + cl);
        assertTrue(Files.readString(out.resolve("META-INF/squall/kernels/good.NormsF32.cu")).contains("#pragma unroll 2"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
            GeneratedKernels gk = (GeneratedKernels) loader.loadClass("good.NormsF32_SquallKernels").getDeclaredConstructor().newInstance();
            dev.squall.tasks.api.FloatArray x = dev.squall.tasks.api.FloatArray.fromArray(-3f, 4f, 0.25f);
            dev.squall.tasks.api.FloatArray y = new dev.squall.tasks.api.FloatArray(3);
            gk.runRange("scaledRoot", new Object[] {x, y, 2f, 3}, 0, 3);
            float[] expect = {2f * 3f + 0.5f + 2f, 2f * 4f + 0.5f + 2f, 2f * 0.25f + 0.5f + 2f};
            for (int i = 0; i < 3; i++) assertEquals(expect[i], y.get(i), 1e-6f, "element " + i);
            // the kernel methods take float types, so host code calls NormsF32 with FloatArray and float
            Class<?> twin = loader.loadClass("good.NormsF32");
            assertNotNull(twin.getDeclaredMethod("scaledRoot", dev.squall.tasks.api.FloatArray.class, dev.squall.tasks.api.FloatArray.class, float.class, int.class));
        }
    }
}
