package dev.squall.tasks.compiler;

import dev.squall.tasks.api.DoubleArray;

import javax.tools.*;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Compiles one source file through the JDK's javac with {@link KernelProcessor}, in this JVM, into a folder. */
final class InProcessJavac {
    private InProcessJavac() {
    }

    /** What javac said: whether it succeeded, and its diagnostics. */
    record Result(boolean ok, List<Diagnostic<? extends JavaFileObject>> diagnostics) {
        String report() {
            return diagnostics.stream().map(d -> d.getKind() + " " + (d.getSource() == null ? "" : Path.of(d.getSource().getName()).getFileName())
                    + ":" + d.getLineNumber() + ": " + message(d)).collect(Collectors.joining("\n"));
        }
    }

    static String message(Diagnostic<?> d) {
        return d.getMessage(Locale.ROOT);
    }

    /** Compiles {@code source}, the class {@code className}, writing classes, generated sources and resources to {@code out}. */
    static Result compile(Path out, String className, String source) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + className.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        List<String> options = List.of("-proc:full", "-classpath", apiClassPath(),
                "-d", out.toString(), "-s", out.toString());
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavaCompiler.CompilationTask task = javac.getTask(null, fm, diags, options, null, List.of(file));
            task.setProcessors(List.of(new KernelProcessor()));
            boolean ok = task.call();
            return new Result(ok, diags.getDiagnostics());
        }
    }

    /**
     * Where squall-api was loaded from: {@code java.class.path} holds only the launcher's jar when the tests run
     * under the JUnit console launcher (as gpu-check does), so javac is pointed at the API's own location.
     */
    private static String apiClassPath() {
        try {
            return Path.of(DoubleArray.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
