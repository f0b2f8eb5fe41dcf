package dev.squall.bench.cli;

import dev.squall.tasks.api.spi.GeneratedKernels;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.KernelRegistry;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.OutputOptions;
import dev.squall.cli.SquallSubcommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** {@code squall kernels}: the kernels built into this Squall, and their generated OpenCL C / CUDA C. */
@Command(name = "kernels", header = "The kernels compiled into Squall, and the code generated for one.",
        description = {"List the kernels compiled into Squall, or print the OpenCL C or CUDA C generated for one (no device needed).", "",
                "Examples:", "  squall kernels", "  squall kernels --print triad64 --backend cuda",
                "  squall kernels --print StreamKernels::copy32 --backend opencl --json"},
        footer = {"", ExitCode.HELP})
public final class KernelsCommand implements SquallSubcommand {
    @Mixin
    OutputOptions output;

    /** {@code --json} of the list (schema in tornado-tasks/cli/JSON.md): every kernel with its owner class, style and parameters. */
    public record ListResult(String command, List<KernelEntry> kernels) {
    }

    /** One kernel: owner class, name, style (loop or spmd), parallel dimensions of a loop kernel, collective, parameters ("type name", arrays "type[] name"). */
    public record KernelEntry(String owner, String name, String style, int parallelDims, boolean collective, List<String> parameters) {
    }

    /** {@code --print --json}: the owner class, the kernel, the backend and the generated program's source. */
    public record SourceResult(String command, String owner, String kernel, String backend, String source) {
    }

    @Option(names = "--print", paramLabel = "NAME", description = "kernel to print: method, Class::method or fully.qualified.Class::method")
    String print;

    @Option(names = "--backend", paramLabel = "opencl|cuda", defaultValue = "opencl", description = "which generated code to print (default: ${DEFAULT-VALUE})")
    String backend;

    @Override
    public Integer call() {
        ClassLoader cl = KernelsCommand.class.getClassLoader();
        List<String[]> all = new ArrayList<>(); // owner, kernel
        for (String owner : KernelRegistry.ownerClasses(cl)) {
            for (KernelInfo k : generated(owner, cl).kernels()) all.add(new String[] {owner, k.name()});
        }
        if (print == null && output.json()) {
            List<KernelEntry> entries = new ArrayList<>();
            for (String owner : KernelRegistry.ownerClasses(cl)) {
                for (KernelInfo k : generated(owner, cl).kernels()) {
                    entries.add(new KernelEntry(owner, k.name(), k.style() == KernelInfo.Style.LOOP ? "loop" : "spmd", k.parallelDims(), k.collective(),
                            k.parameters().stream().map(KernelsCommand::parameter).toList()));
                }
            }
            JsonOutput.print(new ListResult("kernels", entries));
            return ExitCode.OK;
        }
        if (print == null) {
            for (String owner : KernelRegistry.ownerClasses(cl)) {
                System.out.println(owner);
                for (KernelInfo k : generated(owner, cl).kernels()) {
                    String params = k.parameters().stream().map(KernelsCommand::parameter).collect(Collectors.joining(", "));
                    System.out.printf("  %-24s %s%s(%s)%n", k.name(), k.style() == KernelInfo.Style.LOOP ? "loop " + k.parallelDims() + "D" : "spmd",
                            k.collective() ? ", collective" : "", params);
                }
            }
            System.out.println(all.size() + " kernels; print one with: squall kernels --print NAME --backend opencl|cuda");
            return ExitCode.OK;
        }
        if (!backend.equals("opencl") && !backend.equals("cuda")) throw new IllegalArgumentException("--backend must be opencl or cuda, got " + backend);
        String method = print.contains("::") ? print.substring(print.indexOf("::") + 2) : print;
        String cls = print.contains("::") ? print.substring(0, print.indexOf("::")) : null;
        List<String[]> hits = all.stream().filter(k -> k[1].equals(method)
                && (cls == null || k[0].equals(cls) || k[0].endsWith("." + cls) || k[0].endsWith("$" + cls))).toList();
        if (hits.isEmpty()) throw new IllegalArgumentException("no kernel " + print + "; list them with: squall kernels");
        if (hits.size() > 1) throw new IllegalArgumentException("kernel name " + print + " is ambiguous: "
                + hits.stream().map(h -> h[0] + "::" + h[1]).toList() + "; qualify it as Class::method");
        String owner = hits.get(0)[0];
        String source = KernelRegistry.source(owner, backend, cl);
        if (output.json()) {
            JsonOutput.print(new SourceResult("kernels", owner, method, backend, source));
        } else {
            System.out.println("// " + backend + " program of " + owner + " (kernel " + method + ")");
            System.out.print(source);
        }
        return ExitCode.OK;
    }

    private static String parameter(KernelInfo.Param p) {
        return p.kind() == KernelInfo.Kind.ARRAY ? p.type() + "[] " + p.name() : p.type() + " " + p.name();
    }

    private static GeneratedKernels generated(String owner, ClassLoader cl) {
        try {
            return KernelRegistry.generated(Class.forName(owner, false, cl));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("kernel index names " + owner + " but the class is missing", e);
        }
    }
}
