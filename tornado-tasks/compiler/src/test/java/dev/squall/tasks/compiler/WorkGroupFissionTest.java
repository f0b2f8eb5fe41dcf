package dev.squall.tasks.compiler;

import dev.squall.tasks.api.DoubleArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.*;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.*;

/** Which SPMD kernels get a JVM work-group runner, and the NOTE for those that do not. */
class WorkGroupFissionTest {
    private static final String SOURCE = """
            package wg;

            import dev.squall.tasks.api.*;

            public class Kernels {
                @Kernel
                public static void split(KernelContext ctx, DoubleArray x, DoubleArray out, int steps) {
                    double[] part = ctx.allocateDoubleLocalArray(64);
                    double v = x.get(ctx.globalIdx);
                    for (int s = 0; s < steps; s++) {
                        part[ctx.localIdx] = v;
                        ctx.localBarrier();
                        v = part[(ctx.localIdx + 1) % ctx.localGroupSizeX] + ctx.subgroupReduceAdd(v);
                        ctx.localBarrier();
                    }
                    out.set(ctx.globalIdx, v);
                }

                @Kernel
                public static void barrierInSwitch(KernelContext ctx, IntArray a, int mode) {
                    switch (mode) {
                        case 0:
                            ctx.localBarrier();
                            break;
                        default:
                            a.set(ctx.globalIdx, 1);
                    }
                }

                @Kernel
                public static void returnBeforeBarrier(KernelContext ctx, IntArray a) {
                    if (ctx.localIdx > 3) return;
                    ctx.localBarrier();
                    a.set(ctx.globalIdx, 2);
                }
            }
            """;

    @Test
    void kernelsTheFissionCannotExpressGetANoteAndNoRunner(@TempDir Path out) throws IOException {
        List<Diagnostic<? extends JavaFileObject>> diags = compile(out);
        List<String> notes = diags.stream().filter(d -> d.getKind() == Diagnostic.Kind.NOTE).map(d -> d.getMessage(Locale.ROOT)).toList();
        assertTrue(diags.stream().noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING), diags::toString);
        assertTrue(notes.stream().anyMatch(n -> n.contains("kernel barrierInSwitch runs its work-items concurrently") && n.contains("inside a switch")), notes::toString);
        assertTrue(notes.stream().anyMatch(n -> n.contains("kernel returnBeforeBarrier runs its work-items concurrently") && n.contains("returns before a barrier")),
                notes::toString);
        assertTrue(notes.stream().noneMatch(n -> n.contains("kernel split ")), notes::toString);
        String gen = Files.readString(out.resolve("wg/Kernels_SquallKernels.java"));
        assertTrue(gen.contains("sq$groups_split("), gen);
        assertFalse(gen.contains("sq$groups_barrierInSwitch("), gen);
        assertFalse(gen.contains("sq$groups_returnBeforeBarrier("), gen);
        // v lives across the barriers: one value per work-item; the sub-group sum runs for the whole group
        assertTrue(gen.contains("double[] sq$v0_v = new double[sq$n]"), gen);
        assertTrue(gen.contains("WorkGroupOps.subgroupReduceAdd("), gen);
    }

    private static List<Diagnostic<? extends JavaFileObject>> compile(Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///wg/Kernels.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return SOURCE;
            }
        };
        String api;
        try {
            api = Path.of(DoubleArray.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavaCompiler.CompilationTask task = javac.getTask(null, fm, diags, List.of("-proc:full", "-classpath", api, "-d", out.toString(),
                    "-s", out.toString()), null, List.of(file));
            task.setProcessors(List.of(new KernelProcessor()));
            assertTrue(task.call(), diags.getDiagnostics()::toString);
        }
        return diags.getDiagnostics();
    }
}
