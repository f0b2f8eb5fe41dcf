package dev.squall.bench.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.bench.chart.BenchCharts;
import dev.squall.bench.chart.Java2dText;
import dev.squall.bench.suite.Measurement;
import dev.squall.bench.suite.Peers;
import dev.squall.cli.JsonOutput;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Writes {@code docs/<module>.md} for each module with workloads in the suites (hmatrix, sparse, linalg, permanent):
 * the commands that measure it, and the results of the newest H100 run that holds its workloads, as a table and a chart
 * (PNG under {@code docs/img/}), plus {@code docs/img/overview.png}, every workload of that run per device, for the
 * README. Reads every JSON file in the {@code squall bench} / {@code squall demo} row schema (tornado-tasks/cli/JSON.md)
 * under the results folders given, suites and peers of one run together; JMH result files ({@code jmh/*.json}, JMH's
 * {@code -rf json}) of the same run add a table of the module's JMH suites. Run by {@code scripts/docs}.
 *
 * <pre>{@code
 * java -cp 'bench/target/classes:bench/target/lib/*' dev.squall.bench.docs.ModuleDocs docs bench/results/h100 [UNPACKED...]
 * }</pre>
 */
public final class ModuleDocs {
    /** A module's page: its name, title, what it computes, its workloads and JMH suites. */
    record Module(String name, String title, String about, List<String> workloads, List<String> jmh) {
    }

    static final List<Module> MODULES = List.of(
            new Module("hmatrix", "hmatrix: H2 matrices and kernel sums", "H2 matrix-vector products of covariance kernels on 2-D clouds, and Gaussian"
                    + " kernel sums, dense and block-sparse.", List.of("h2", "ksum-dense", "ksum-sparse"), List.of("H2Benchmark", "KernelSumBenchmark")),
            new Module("sparse", "sparse: SpMV, solvers and SGD", "SpMV in the format the inspector picks, a Jacobi-preconditioned CG solve of"
                    + " HPCG's problem, and an epoch of matrix-factorisation SGD.", List.of("spmv", "pcg", "sgd"),
                    List.of("SpmvBenchmark", "GaussSeidelBenchmark", "PcgBenchmark", "SgdBenchmark")),
            new Module("linalg", "linalg: Cholesky and triangular inverses", "Batched Cholesky factors of small covariance matrices (the suites), dense"
                    + " Cholesky and batched triangular inverses (JMH, with EJML).", List.of("cholesky"), List.of("CholeskyBenchmark")),
            new Module("permanent", "permanent: Ryser permanents", "The permanent of dense matrices by the Gray-code Ryser sweep.",
                    List.of("permanent"), List.of("PermanentBenchmark")));

    /** One file of rows: its run (folder under the results root), where it lies, its command and suite, its rows. */
    record Source(String run, String shown, String command, String suite, List<Measurement> rows) {
    }

    /** One JMH result: benchmark, parameters, score and unit. */
    record JmhRow(String run, String shown, String benchmark, String params, double score, double error, String unit) {
    }

    private ModuleDocs() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ModuleDocs DOCS_DIR RESULTS_ROOT [UNPACKED_ROOT...]   (scripts/docs runs it)");
            System.exit(2);
        }
        Path docs = Path.of(args[0]), root = Path.of(args[1]);
        List<Source> sources = new ArrayList<>();
        List<JmhRow> jmh = new ArrayList<>();
        for (int i = 1; i < args.length; i++) read(Path.of(args[i]), root.getFileName().toString(), sources, jmh);
        if (sources.isEmpty()) throw new IllegalArgumentException("no squall bench or demo results under " + root);
        Throwable noText = Java2dText.failure();
        if (noText != null) {
            throw new IllegalStateException("the pages' charts need Java2D to draw text, and this Java cannot (" + noText
                    + "): install fontconfig and a font (e.g. Debian's fonts-dejavu-core)", noText);
        }
        Files.createDirectories(docs.resolve("img"));
        for (Module m : MODULES) Files.writeString(docs.resolve(m.name() + ".md"), page(m, sources, jmh, docs, root));
        String newest = sources.stream().map(Source::run).max(String::compareTo).orElseThrow();
        List<Measurement> all = rows(sources, newest, null);
        png(BenchCharts.bars("on the H100 host, " + newest, all), docs.resolve("img/overview.png"));
        System.err.println("docs: wrote " + MODULES.size() + " pages and docs/img/overview.png from run " + newest);
    }

    /** Every JSON file under {@code dir}: row files into {@code sources}, JMH files into {@code jmh}. */
    static void read(Path dir, String rootName, List<Source> sources, List<JmhRow> jmh) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".json") && Files.isRegularFile(p)).sorted().toList();
        }
        for (Path f : files) {
            Path rel = dir.relativize(f);
            if (rel.getNameCount() < 3) continue;   // AREA/RUN/...
            String run = rel.getName(0) + "/" + rel.getName(1);
            String shown = "bench/results/" + rootName + "/" + rel;
            JsonNode root;
            try {
                root = JsonOutput.mapper().readTree(Files.readString(f));
            } catch (IOException e) {
                continue;   // not one JSON document (JSON lines of other scripts)
            }
            if (root == null) continue;
            if (root.isArray() && !root.isEmpty() && root.get(0).has("benchmark") && root.get(0).has("primaryMetric")) {
                for (JsonNode r : root) {
                    Map<String, String> params = new TreeMap<>();
                    r.path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
                    JsonNode pm = r.get("primaryMetric");
                    jmh.add(new JmhRow(run, shown, r.get("benchmark").asText().replace("dev.squall.bench.jmh.", ""),
                            String.join(" ", params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()),
                            pm.get("score").asDouble(), pm.path("scoreError").asDouble(Double.NaN), pm.get("scoreUnit").asText()));
                }
                continue;
            }
            JsonNode rows = root.get("rows");
            if (rows == null || !rows.isArray() || rows.isEmpty() || !rows.get(0).has("workload") || !rows.get(0).has("median_ms")) continue;
            Peers.File p = Peers.read(f);
            sources.add(new Source(run, shown, root.path("command").asText(), root.path("suite").asText(root.path("sizes").asText()), p.rows()));
        }
    }

    /**
     * The rows of {@code run} for {@code workloads} (all when null): the bench suites' and peers' files when the run has
     * any, else its demo files; a workload, size and device once (the first file, in name order, that has it).
     */
    static List<Measurement> rows(List<Source> sources, String run, List<String> workloads) {
        List<Source> mine = sources.stream().filter(s -> s.run().equals(run)).toList();
        boolean bench = mine.stream().anyMatch(s -> s.command().equals("bench") && has(s, workloads));
        Map<String, Measurement> out = new LinkedHashMap<>();
        for (Source s : mine) {
            if (bench != s.command().equals("bench")) continue;
            for (Measurement m : s.rows()) {
                if (workloads != null && !workloads.contains(m.workload())) continue;
                out.putIfAbsent(m.workload() + "\u0000" + m.size() + "\u0000" + m.device(), m);
            }
        }
        return List.copyOf(out.values());
    }

    private static boolean has(Source s, List<String> workloads) {
        return s.rows().stream().anyMatch(m -> workloads == null || workloads.contains(m.workload()));
    }

    static String page(Module m, List<Source> sources, List<JmhRow> jmh, Path docs, Path root) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(m.title()).append("\n\n");
        b.append("<!-- written by scripts/docs from ").append("bench/results/").append(root.getFileName()).append("; edit ModuleDocs.java, not this file -->\n\n");
        b.append(m.about()).append(" Every result is checked against the module's plain-Java reference; the ratio is the rate over the")
                .append(" device's measured STREAM copy bandwidth (memory-bound workloads) or multiply-add rate (compute-bound).\n\n");
        b.append("## Commands\n\n```sh\n");
        for (String w : m.workloads()) b.append("squall bench --suite ").append(w).append(" --out /tmp/squall-bench        # quick sizes, every device\n");
        b.append("squall bench --suite full --devices cuda:0 --out /tmp/squall-bench   # the sizes below (bench/gpu/demo-bench.sh adds the peers)\n");
        b.append("squall demo --full --device cuda:0\n");
        for (String j : m.jmh()) b.append("java -jar bench/target/benchmarks.jar ").append(j).append(" -p device=cuda,opencl,jvm -rf json\n");
        b.append("```\n\n");
        String run = sources.stream().filter(s -> has(s, m.workloads())).map(Source::run).max(String::compareTo).orElse(null);
        b.append("## Results on the H100 host\n\n");
        if (run == null) {
            b.append("No run under `bench/results/").append(root.getFileName()).append("` holds these workloads yet: run `bench/gpu/demo-bench.sh`.\n");
            return b.toString();
        }
        List<String> devices = rows(sources, run, m.workloads()).stream().map(Measurement::device).distinct().toList();
        List<Measurement> rows = rows(sources, run, m.workloads()).stream().sorted(java.util.Comparator
                .comparingInt((Measurement r) -> m.workloads().indexOf(r.workload())).thenComparingDouble(Measurement::scale)
                .thenComparingInt(r -> devices.indexOf(r.device()))).toList();
        Set<String> files = new LinkedHashSet<>();
        for (Source s : sources) if (s.run().equals(run) && s.rows().stream().anyMatch(rows::contains)) files.add(s.shown());
        b.append("From [`").append(run).append("`](../bench/results/").append(root.getFileName()).append("/").append(run).append("/) (")
                .append(String.join(", ", files.stream().map(f -> "`" + f.substring(f.indexOf(run) + run.length() + 1) + "`").toList()))
                .append("; the run's README gives the command and the commit).\n\n");
        b.append("| workload | size | device | precision | median ms | rate | of limit | vs jvm | check |\n");
        b.append("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n");
        for (Measurement r : rows) {
            Double jvm = rows.stream().filter(j -> j.device().equals("jvm") && j.workload().equals(r.workload()) && j.size().equals(r.size()))
                    .map(j -> j.medianMs() / r.medianMs()).findFirst().orElse(null);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.4g | %.4g %s | %s | %s | %s |%n", r.workload(), r.size(), r.device(), r.precision(),
                    r.medianMs(), r.rate(), r.bound().unit(), Double.isFinite(r.ratioToLimit()) ? String.format(Locale.ROOT, "%.2f %s", r.ratioToLimit(), r.bound().limitName()) : "-",
                    jvm == null ? "-" : String.format(Locale.ROOT, jvm >= 100 ? "%.0fx" : "%.3gx", jvm), r.ok() ? String.format(Locale.ROOT, "ok (%.0e)", r.error()) : "**WRONG**"));
        }
        String img = "img/" + m.name() + ".png";
        png(BenchCharts.bars(m.name(), rows), docs.resolve(img));
        b.append("\n![").append(m.name()).append(": median time per device at the largest size](").append(img).append(")\n");
        for (String w : m.workloads()) {
            List<Measurement> mine = rows.stream().filter(r -> r.workload().equals(w)).toList();
            if (mine.stream().map(Measurement::size).distinct().count() < 2) continue;
            String s = "img/" + m.name() + "-" + w + ".png";
            png(BenchCharts.scaling(w, mine), docs.resolve(s));
            b.append("\n![").append(w).append(": time against size](").append(s).append(")\n");
        }
        List<JmhRow> suites = jmh.stream().filter(j -> j.run().equals(run) && m.jmh().stream().anyMatch(c -> j.benchmark().startsWith(c + "."))).toList();
        if (!suites.isEmpty()) {
            b.append("\n### JMH suites (`benchmarks.jar`, EJML on the host's cores as the CPU peer)\n\n");
            b.append("| benchmark | parameters | score | unit |\n| --- | --- | ---: | --- |\n");
            for (JmhRow j : suites) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %.4g%s | %s |%n", j.benchmark(), j.params(), j.score(),
                        Double.isFinite(j.error()) ? String.format(Locale.ROOT, " ± %.2g", j.error()) : "", j.unit()));
            }
        }
        return b.toString();
    }

    private static void png(Chart<?, ?> chart, Path file) {
        try {
            String base = file.toString().replaceAll("\\.png$", "");
            BitmapEncoder.saveBitmapWithDPI(chart, base, BitmapEncoder.BitmapFormat.PNG, 96);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
