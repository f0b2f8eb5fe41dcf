package dev.squall.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java examples of the READMEs compile against the modules as they are, with Squall's annotation processor
 * checking their kernels. An example is a fenced {@code java} block holding a whole compilation unit (it starts with
 * {@code package} or {@code import}); the blocks of all READMEs compile together, so one README's example may use
 * another's class. An example the README shows failing (the next fenced block starts {@code Name.java:LINE: error:
 * MESSAGE}) must fail with that message at that line.
 */
@Tag("source-tree")
class ReadmeExamplesTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** The READMEs whose examples are complete programs. */
    private static final List<String> READMES = List.of("README.md", "tornado-tasks/api/README.md",
            "tornado-tasks/compiler/README.md", "tornado-tasks/runtime/README.md", "tornado-tasks/linalg/README.md",
            "tornado-tasks/cli/README.md", "sparse/README.md", "bench/README.md");

    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```", Pattern.DOTALL);
    private static final Pattern EXPECTED_ERROR = Pattern.compile("^(\\w+)\\.java:(\\d+): error: (.*)$", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern PUBLIC_TYPE = Pattern.compile("(?m)^public (?:final |abstract )?(?:class|record|interface|enum) (\\w+)");

    /** One example: where it is, its source, and the error it is shown failing with (or null). */
    record Example(String readme, String source, ExpectedError error) {
        String typeName() {
            Matcher m = PUBLIC_TYPE.matcher(source);
            if (!m.find()) throw new AssertionError(readme + ": an example without a public top-level type:\n" + source);
            return m.group(1);
        }

        Path file(Path dir) {
            Matcher p = PACKAGE.matcher(source);
            Path pkg = p.find() ? dir.resolve(p.group(1).replace('.', '/')) : dir;
            return pkg.resolve(typeName() + ".java");
        }
    }

    record ExpectedError(String type, long line, String message) {
    }

    /** One error javac reported: the file's type name, the line and the message's first line. */
    record CompileError(String type, long line, String message) {
        @Override
        public String toString() {
            return type + ".java:" + line + ": " + message;
        }
    }

    private static final Pattern JAVAC_ERROR = Pattern.compile("(?m)^(?:.*[/\\\\])?(\\w+)\\.java:(\\d+): error: (.*)$");

    @Test
    void everyReadmeExampleCompilesAndEveryFailingOneFailsAsShown(@TempDir Path dir) throws IOException {
        List<Example> examples = new ArrayList<>();
        for (String readme : READMES) examples.addAll(examples(readme));
        // every README listed has at least one example: the test cannot pass on an empty list
        for (String readme : READMES) {
            assertTrue(examples.stream().anyMatch(e -> e.readme().equals(readme)), readme + " has no Java example");
        }

        List<Example> compiling = examples.stream().filter(e -> e.error() == null).toList();
        List<CompileError> errors = compile(dir.resolve("ok"), compiling);
        assertTrue(errors.isEmpty(), "README examples do not compile:\n" + String.join("\n", errors.stream().map(CompileError::toString).toList()));

        List<Example> failing = examples.stream().filter(e -> e.error() != null).toList();
        assertFalse(failing.isEmpty(), "no README shows a kernel that fails to compile");
        for (Example e : failing) {
            List<CompileError> d = compile(dir.resolve("fail-" + e.typeName()), List.of(e));
            assertEquals(List.of(new CompileError(e.typeName(), e.error().line(), e.error().message())), d,
                    e.readme() + ": the example fails otherwise than shown (" + e.error() + ")");
            assertEquals(e.typeName(), e.error().type(), e.readme() + ": the error shown names another file");
        }
    }

    /** The whole-compilation-unit Java blocks of {@code readme}, each with the error shown right after it, if any. */
    static List<Example> examples(String readme) throws IOException {
        String text = Files.readString(ROOT.resolve(readme), StandardCharsets.UTF_8);
        List<Example> out = new ArrayList<>();
        Matcher m = FENCE.matcher(text);
        List<String[]> blocks = new ArrayList<>();
        while (m.find()) blocks.add(new String[] {m.group(1), m.group(2)});
        for (int i = 0; i < blocks.size(); i++) {
            String[] b = blocks.get(i);
            if (!b[0].equals("java")) continue;
            String src = b[1].stripLeading();
            if (!src.startsWith("package ") && !src.startsWith("import ")) continue;
            ExpectedError err = null;
            if (i + 1 < blocks.size() && blocks.get(i + 1)[0].isEmpty()) {
                Matcher e = EXPECTED_ERROR.matcher(blocks.get(i + 1)[1]);
                if (e.lookingAt()) err = new ExpectedError(e.group(1), Long.parseLong(e.group(2)), e.group(3));
            }
            out.add(new Example(readme, b[1], err));
        }
        return out;
    }

    /** Compiles {@code examples} together into {@code dir} with the test class path and annotation processing on. */
    private static List<CompileError> compile(Path dir, List<Example> examples) throws IOException {
        List<String> args = new ArrayList<>(List.of("--release", "25", "-proc:full", "-Xmaxerrs", "1000",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "-d", dir.resolve("classes").toString()));
        for (Example e : examples) {
            Path f = e.file(dir.resolve("src"));
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.source(), StandardCharsets.UTF_8);
            args.add(f.toString());
        }
        Files.createDirectories(dir.resolve("classes"));
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new AssertionError("no javac in this JDK"));
        StringWriter out = new StringWriter();
        int code;
        try (PrintWriter w = new PrintWriter(out)) {
            code = javac.run(w, w, args.toArray(String[]::new));
        }
        List<CompileError> errors = new ArrayList<>();
        Matcher m = JAVAC_ERROR.matcher(out.toString());
        while (m.find()) errors.add(new CompileError(m.group(1), Long.parseLong(m.group(2)), m.group(3)));
        if (code != 0 && errors.isEmpty()) throw new AssertionError("javac failed (exit " + code + ") without an error line:\n" + out);
        return errors;
    }
}
