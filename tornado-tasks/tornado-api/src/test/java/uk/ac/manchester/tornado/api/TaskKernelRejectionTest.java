package uk.ac.manchester.tornado.api;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TornadoVM programs whose task kernels leave the kernel language fail javac at the offending line, and the message names
 * the task that made the method a kernel (TornadoVM itself would bail out at run time or run sequential Java).
 */
class TaskKernelRejectionTest {
    private static final String HEADER = """
            package p;
            import uk.ac.manchester.tornado.api.*;
            import uk.ac.manchester.tornado.api.annotations.*;
            import uk.ac.manchester.tornado.api.enums.DataTransferMode;
            import uk.ac.manchester.tornado.api.types.arrays.*;
            import uk.ac.manchester.tornado.api.types.matrix.*;
            import uk.ac.manchester.tornado.api.types.collections.*;
            import uk.ac.manchester.tornado.api.types.vectors.*;
            public class Prog {
            """;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            object in a kernel     | public static void k(float[] a) { for (@Parallel int i = 0; i < a.length; i++) { Object o = new Object(); } } | a | are not in the kernel language | k is a kernel because TaskGraph.task("t0"
            string in a helper     | static int h(int x) { String s = "x"; return x; } public static void k(float[] a) { for (@Parallel int i = 0; i < a.length; i++) a[i] = h(i); } | a | variables of type java.lang.String are not in the kernel language | h is a device function because task kernel k calls it
            reduce by subtraction  | public static void k(float[] a, @Reduce float[] r) { for (@Parallel int i = 0; i < a.length; i++) r[0] -= a[i]; } | a, a | in the loop of a @Reduce kernel, r is used only as | k is a kernel because TaskGraph.task("t0"
            reduce updated twice   | public static void k(float[] a, @Reduce float[] r) { for (@Parallel int i = 0; i < a.length; i++) { r[0] += a[i]; r[0] += 1; } } | a, a | updates r[0] once in its loop | k is a kernel because
            reduce, code after     | public static void k(float[] a, @Reduce float[] r) { for (@Parallel int i = 0; i < a.length; i++) r[0] += a[i]; a[0] = 0; } | a, a | a @Reduce kernel ends with its @Parallel loop | k is a kernel because
            reduce without a loop  | public static void k(float[] a, @Reduce float[] r) { r[0] = a[0]; } | a, a | a @Reduce kernel reduces in a @Parallel loop | k is a kernel because
            reduce of shorts       | public static void k(short[] a, @Reduce short[] r) { for (@Parallel int i = 0; i < a.length; i++) r[0] += a[i]; } | new short[1], new short[1] | a @Reduce parameter is an array of float, double, int or long | k is a kernel because
            two reduce parameters  | public static void k(float[] a, @Reduce float[] r, @Reduce float[] q) { for (@Parallel int i = 0; i < a.length; i++) r[0] += a[i]; } | a, a, a | a kernel has at most one @Reduce parameter | k is a kernel because
            float4 conditional     | public static void k(VectorFloat4 v, float[] a) { for (@Parallel int i = 0; i < a.length; i++) { Float4 x = a[i] > 0 ? v.get(i) : v.get(0); a[i] = x.getX(); } } | new VectorFloat4(1), a | a Float4 value in a kernel is vector.get(i), a Float4 local | k is a kernel because
            float4 to a helper     | static float h(float f) { return f; } public static void k(VectorFloat4 v, float[] a) { for (@Parallel int i = 0; i < a.length; i++) { Float4 x = v.get(i); a[i] = h(x); } } | new VectorFloat4(1), a | Float4 x is used in kernels through getX() .. getW() | k is a kernel because
            float4 parameter       | public static void k(Float4 v, float[] a) { for (@Parallel int i = 0; i < a.length; i++) a[i] = v.getX(); } | new Float4(), a | kernel parameter v has type uk.ac.manchester.tornado.api.types.vectors.Float4 | k is a kernel because
            matrix as an array     | public static void k(Matrix2DFloat m, float[] a) { for (@Parallel int i = 0; i < a.length; i++) a[i] = m.get(i); } | new Matrix2DFloat(2, 2), a | matrix m is used in kernels through get(i, j), set(i, j, v) | k is a kernel because
            parameter of an object | public static void k(float[] a, String s) { for (@Parallel int i = 0; i < a.length; i++) a[i] = 1; } | a, "x" | kernel parameter s has type java.lang.String | k is a kernel because
            overloaded kernel      | public static void k(float[] a) { } public static void k(int[] a) { } | a | is overloaded | task kernel Prog::k
            """)
    void rejected(String name, String kernel, String args, String message, String why) throws Exception {
        String src = HEADER + "    " + kernel + "\n"
                + "    static void run(float[] a) { new TaskGraph(\"s0\").task(\"t0\", Prog::k, " + args + "); }\n}\n";
        List<Diagnostic<? extends JavaFileObject>> errors = compile(src);
        Diagnostic<? extends JavaFileObject> e = errors.stream().filter(d -> d.getMessage(null).contains(message)).findFirst()
                .orElseThrow(() -> new AssertionError("no error containing \"" + message + "\" in " + errors));
        assertTrue(e.getMessage(null).contains(why), e.getMessage(null));
        int kernelLine = HEADER.split("\n").length + 1, taskLine = kernelLine + 1;
        assertEquals(name.equals("overloaded kernel") ? taskLine : kernelLine, e.getLineNumber(), "the error's line: " + e.getMessage(null));
    }

    private static List<Diagnostic<? extends JavaFileObject>> compile(String source) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("tornado-reject");
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///p/Prog.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        // the program is compiled as a class-path program against everything this test JVM sees (on the module path,
        // the Squall modules and the processor's dependencies are in jdk.module.path, not java.class.path)
        String modulePath = System.getProperty("jdk.module.path");
        String classPath = System.getProperty("java.class.path")
                + (modulePath == null || modulePath.isEmpty() ? "" : File.pathSeparator + modulePath);
        List<String> options = List.of("-proc:full", "-classpath", classPath, "-d", out.toString(),
                "-processor", "dev.squall.tasks.compiler.KernelProcessor");
        javac.getTask(null, null, diags, options, null, List.of(file)).call();
        return diags.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
    }
}
