package dev.squall.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.squall.cli.JsonOutput;
import dev.squall.hmatrix.cli.H2Command;
import dev.squall.hmatrix.cli.KsumCommand;
import dev.squall.linalg.cli.CholeskyCommand;
import dev.squall.linalg.cli.GemmCommand;
import dev.squall.linalg.cli.QrCommand;
import dev.squall.linalg.cli.SvdCommand;
import dev.squall.linalg.cli.TrinvCommand;
import dev.squall.permanent.cli.PermanentCommand;
import dev.squall.sparse.cli.GsCommand;
import dev.squall.sparse.cli.PcgCommand;
import dev.squall.sparse.cli.SgdCommand;
import dev.squall.sparse.cli.SpmmCommand;
import dev.squall.sparse.cli.SpmvCommand;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Each command's --json output read back: one object whose fields are exactly its result record's components
 * (snake_case, in order: the documented schema), with the values the run implies.
 */
class SquallCommandJsonTest {
    private static JsonNode json(Class<? extends Record> schema, String... args) throws Exception {
        CliRun r = CliRun.of(args);
        assertEquals(0, r.code(), r.toString());
        String[] lines = r.out().strip().split("\n");
        JsonNode node = JsonOutput.mapper().readTree(lines[0]);
        List<String> want = new ArrayList<>();
        for (RecordComponent c : schema.getRecordComponents()) want.add(new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName()));
        List<String> got = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) got.add(it.next());
        assertEquals(want, got, schema.getName() + " schema of " + String.join(" ", args));
        return node;
    }

    /** {@code node}'s fields are exactly {@code schema}'s components, snake_case, in order. */
    static void fields(Class<? extends Record> schema, JsonNode node) {
        List<String> want = new ArrayList<>();
        for (RecordComponent c : schema.getRecordComponents()) want.add(new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName()));
        List<String> got = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) got.add(it.next());
        assertEquals(want, got, schema.getName());
    }

    /** The fields every computing command reports: command, device, precision, verified, ok. */
    private static void common(JsonNode n, String command, String device, String precision, boolean verified) {
        assertEquals(command, n.get("command").asText());
        assertEquals(device, n.get("device").asText());
        assertEquals(precision, n.get("precision").asText());
        assertEquals(verified, n.get("verified").asBoolean());
        assertTrue(n.get("ok").asBoolean(), n.toString());
    }

    @Test
    void linalg() throws Exception {
        JsonNode c = json(CholeskyCommand.Result.class, "cholesky", "--n", "40", "--batch", "3", "--device", "jvm", "--verify", "--repeat", "2", "--json");
        common(c, "cholesky", "jvm", "fp64", true);
        assertEquals(40, c.get("n").asInt());
        assertEquals(3 * 40.0 * 40 * 40 / 3 / (c.get("ms_median").asDouble() * 1e6), c.get("gflops").asDouble(), 1e-9 * c.get("gflops").asDouble() + 1e-9);
        assertTrue(c.get("residual").asDouble() < 1e-10 && c.get("ms_min").asDouble() <= c.get("ms_median").asDouble(), c.toString());
        assertTrue(c.get("log_det").isNull(), "no log-determinant for a batch");
        JsonNode t = json(TrinvCommand.Result.class, "trinv", "--n", "20", "--device", "jvm", "--precision", "fp32", "--repeat", "1", "--json");
        common(t, "trinv", "jvm", "fp32", false);
        assertTrue(t.get("residual").isNull() && t.get("matrix").isNull(), t.toString());
        JsonNode g = json(GemmCommand.Result.class, "gemm", "--m", "12", "--n", "7", "--k", "5", "--batch", "4", "--device", "jvm", "--verify", "--repeat", "1", "--json");
        common(g, "gemm", "jvm", "fp64", true);
        assertEquals(2.0 * 12 * 7 * 5 * 4 / (g.get("ms_median").asDouble() * 1e6), g.get("gflops").asDouble(), 1e-6 * g.get("gflops").asDouble());
        assertTrue(g.get("max_error").asDouble() < 1e-12, g.toString());
        common(json(QrCommand.Result.class, "qr", "--m", "10", "--n", "6", "--batch", "2", "--device", "jvm", "--verify", "--repeat", "1", "--json"), "qr", "jvm", "fp64", true);
        JsonNode s = json(SvdCommand.Result.class, "svd", "--m", "10", "--n", "6", "--batch", "2", "--device", "jvm", "--verify", "--repeat", "1", "--json");
        common(s, "svd", "jvm", "fp64", true);
        assertTrue(s.get("rank_min").asInt() >= 1 && s.get("rank_max").asInt() <= 6, s.toString());
    }

    @Test
    void sparse() throws Exception {
        JsonNode v = json(SpmvCommand.Result.class, "spmv", "--generate", "5pt:20x20", "--format", "csr", "--device", "jvm", "--verify", "--repeat", "3", "--batch", "2", "--json");
        common(v, "spmv", "jvm", "fp64", true);
        assertEquals(400, v.get("rows").asInt());
        assertEquals(400 * 5 - 4 * 20, v.get("nnz").asLong());
        assertEquals(v.get("counted_bytes").asDouble() / (v.get("executor_ms_median").asDouble() * 1e-3) / 1e9, v.get("gbs").asDouble(), 1e-9 * v.get("gbs").asDouble());
        assertEquals(v.get("gbs").asDouble() / v.get("copy_gbs").asDouble(), v.get("ratio_to_copy").asDouble(), 1e-9);
        JsonNode m = json(SpmmCommand.Result.class, "spmm", "--generate", "5pt:20x20", "--vectors", "3", "--device", "jvm", "--verify", "--repeat", "3", "--batch", "2", "--json");
        common(m, "spmm", "jvm", "fp64", true);
        assertEquals(3, m.get("vectors").asInt());
        JsonNode gs = json(GsCommand.Result.class, "gs", "--generate", "7pt:6x5x4", "--sweeps", "2", "--device", "jvm", "--verify", "--json");
        common(gs, "gs", "jvm", "fp64", true);
        assertEquals(120, gs.get("rows").asInt());
        JsonNode pcg = json(PcgCommand.Result.class, "pcg", "--generate", "hpcg:8", "--precond", "jacobi", "--device", "jvm", "--verify", "--json");
        common(pcg, "pcg", "jvm", "fp64", true);
        assertEquals("converged", pcg.get("status").asText());
        assertEquals(pcg.get("iterations").asInt() + 1, pcg.get("history").size(), pcg.toString());
        JsonNode sgd = json(SgdCommand.Result.class, "sgd", "--generate", "300x200x6000", "--rank", "4", "--epochs", "3", "--device", "jvm", "--json");
        common(sgd, "sgd", "jvm", "fp32", false);
        assertEquals(sgd.get("train").asLong() + sgd.get("test").asLong(), sgd.get("ratings").asLong());
    }

    @Test
    void permanentAndH2() throws Exception {
        // J_12 - I: its permanent counts the derangements of 12 items
        JsonNode p = json(PermanentCommand.Result.class, "permanent", "--matrix", "bench/data/derangements12.mtx", "--device", "jvm", "--verify", "--json");
        common(p, "permanent", "jvm", "fp64", true);
        assertEquals(176214841.0, p.get("value").asDouble(), 176214841.0 * 1e-12);
        assertEquals(List.of("jvm"), List.of(p.get("ran_on").get(0).asText()));
        assertTrue(p.get("verify").get("ok").asBoolean(), p.toString());
        JsonNode h = json(H2Command.Result.class, "h2", "--points", "2d", "--n", "600", "--order", "3", "--leaf", "32", "--device", "jvm", "--repeat", "2", "--verify",
                "--tolerance", "1e-2", "--json");
        common(h, "h2", "jvm", "fp64", true);
        assertEquals(600, h.get("n").asInt());
        assertTrue(h.get("memory_bytes").get("total").asLong() > 0 && h.get("phase_ms").size() > 0, h.toString());
        JsonNode k = json(KsumCommand.Result.class, "ksum", "--n", "500", "--m", "300", "--device", "jvm", "--repeat", "1", "--verify", "--json");
        common(k, "ksum", "jvm", "fp32", true);
        assertEquals(500L * 300, k.get("pairs").asLong());
        assertEquals(k.get("pairs").asDouble() / (k.get("kernel_ms").asDouble() * 1e-3), k.get("pairs_per_s").asDouble(), 1e-9 * k.get("pairs_per_s").asDouble());
    }

    @Test
    void devicesKernelsDemoBench() throws Exception {
        JsonNode d = json(DevicesCommand.Result.class, "devices", "--json");
        boolean jvm = false;
        for (JsonNode e : d.get("devices")) jvm |= e.get("available").asBoolean() && e.get("id").asText().equals("jvm");
        assertTrue(jvm, d.toString());
        JsonNode k = json(KernelsCommand.ListResult.class, "kernels", "--json");
        assertTrue(k.get("kernels").size() > 10, k.toString());
        JsonNode src = json(KernelsCommand.SourceResult.class, "kernels", "--print", "triad64", "--backend", "cuda", "--json");
        assertTrue(src.get("source").asText().contains("triad64"), src.toString());
        JsonNode demo = json(DemoCommand.Result.class, "demo", "--device", "jvm", "--json");
        assertTrue(demo.get("ok").asBoolean() && demo.get("devices").get(0).get("device").asText().equals("jvm"), demo.toString());
        assertEquals("quick", demo.get("sizes").asText());
        JsonNode limits = demo.get("devices").get(0);
        fields(DemoCommand.DeviceLimitsRow.class, limits);
        assertEquals(8, demo.get("rows").size(), "one row per workload");
        assertEquals(8, demo.get("fastest").size());
        for (JsonNode row : demo.get("rows")) {
            fields(DemoCommand.Row.class, row);
            assertEquals("jvm", row.get("device").asText());
            double median = row.get("median_ms").asDouble(), rate = row.get("rate").asDouble();
            assertEquals(row.get("work").asDouble() / (median * 1e-3) / 1e9, rate, 1e-9 * rate, row.toString());
            boolean memory = row.get("bound").asText().equals("memory");
            assertEquals(memory ? "GB/s" : "GFLOP/s", row.get("rate_unit").asText());
            assertEquals(limits.get(memory ? "copy_gbs" : "fma_gflops").asDouble(), row.get("limit").asDouble(), 0, row.toString());
            assertEquals(rate / row.get("limit").asDouble(), row.get("ratio_to_limit").asDouble(), 1e-9 * row.get("ratio_to_limit").asDouble());
            boolean isSample = false;
            for (JsonNode ms : row.get("samples_ms")) isSample |= ms.asDouble() == median;
            assertTrue(isSample && row.get("error").asDouble() <= row.get("tolerance").asDouble() && row.get("ok").asBoolean(), row.toString());
        }
        for (JsonNode f : demo.get("fastest")) {
            fields(DemoCommand.Fastest.class, f);
            assertEquals(1.0, f.get("speedup_over_slowest").asDouble(), "one device: it is the fastest and the slowest");
        }
        JsonNode b = json(BenchCommand.Result.class, "bench", "--suite", "stream", "--device", "jvm", "--size", "100000", "--repeat", "2", "--dispatch-runs", "50",
                "--precision", "fp32", "--json");
        assertEquals("stream", b.get("suite").asText());
        assertEquals(4, b.get("stream").size(), "copy, scale, add, triad in fp32");
        for (JsonNode row : b.get("stream")) {
            assertEquals("jvm", row.get("device").asText());
            assertEquals(row.get("bytes").asDouble() / (row.get("median_ms").asDouble() * 1e-3) / 1e9, row.get("gb_per_s").asDouble(), 1e-6 * row.get("gb_per_s").asDouble());
        }
        assertTrue(b.get("ok").asBoolean(), b.toString());
    }
}
