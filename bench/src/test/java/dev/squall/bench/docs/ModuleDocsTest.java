package dev.squall.bench.docs;

import dev.squall.bench.chart.Java2dText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The docs pages from a results tree: the newest run holding a module's workloads wins, its suite and peer files are
 * merged into one table (speedups over jvm computed from the rows), its JMH JSON adds a table, the charts are PNGs,
 * and a module without results says so.
 */
class ModuleDocsTest {
    private static String row(String workload, String size, double scale, String device, double ms, String bound) {
        double work = 1e9;
        return String.format(Locale.ROOT, "{\"workload\":\"%s\",\"title\":\"t\",\"size\":\"%s\",\"scale\":%s,\"scale_unit\":\"entries\",\"device\":\"%s\","
                        + "\"precision\":\"fp64\",\"samples_ms\":[%s,%s],\"median_ms\":%s,\"spread\":0.1,\"bound\":\"%s\",\"work\":%s,\"rate\":%s,"
                        + "\"rate_unit\":\"GB/s\",\"limit\":1000.0,\"ratio_to_limit\":%s,\"note\":\"\",\"error\":1e-16,\"tolerance\":1e-12,"
                        + "\"checked_against\":\"ref\",\"ok\":true,\"wall_ms\":5.0}",
                workload, size, scale, device, ms, ms, ms, bound, work, work / (ms * 1e-3) / 1e9, work / (ms * 1e-3) / 1e9 / 1000);
    }

    private static void write(Path f, String command, String... rows) throws Exception {
        Files.createDirectories(f.getParent());
        Files.writeString(f, "{\"command\":\"" + command + "\",\"suite\":\"full\",\"devices\":[],\"rows\":[" + String.join(",", rows) + "]}");
    }

    @Test
    void pagesTakeTheNewestRunWithItsPeersAndJmhResults(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("h100"), docs = dir.resolve("docs");
        Path run = root.resolve("bench/2026-02-01-new");
        write(run.resolve("results/bench-full/bench-full-x.json"), "bench",
                row("spmv", "27pt:8x8x8 nnz=13824", 13824, "cuda:0", 0.5, "memory"), row("spmv", "27pt:8x8x8 nnz=13824", 13824, "jvm", 4.0, "memory"),
                row("spmv", "27pt:16x16x16 nnz=97336", 97336, "cuda:0", 1.0, "memory"), row("cholesky", "10 x n=64", 10, "cuda:0", 2.0, "compute"));
        write(run.resolve("results/peers/cusparse.json"), "bench", row("spmv", "27pt:16x16x16 nnz=97336", 97336, "cusparse:0", 0.8, "memory"));
        Files.writeString(run.resolve("results/jmh-spmv.json"), "[{\"benchmark\":\"dev.squall.bench.jmh.SpmvBenchmark.squall\",\"params\":{\"device\":\"cuda\","
                + "\"format\":\"csr\"},\"primaryMetric\":{\"score\":12.5,\"scoreError\":0.5,\"scoreUnit\":\"us/op\"}}]");
        // an older run: its figures must not appear
        write(root.resolve("bench/2026-01-01-old/demo.json"), "demo", row("spmv", "27pt:8x8x8 nnz=13824", 13824, "cuda:0", 777.0, "memory"));

        Throwable noText = Java2dText.failure();
        if (noText != null) {
            // a host whose Java cannot draw text (no fonts): the generator says so and what to install
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ModuleDocs.main(new String[]{docs.toString(), root.toString()}));
            assertTrue(e.getMessage().contains("cannot") && e.getMessage().contains("font"), e.getMessage());
            return;
        }
        ModuleDocs.main(new String[]{docs.toString(), root.toString()});

        String sparse = Files.readString(docs.resolve("sparse.md"));
        assertTrue(sparse.contains("[`bench/2026-02-01-new`](../bench/results/h100/bench/2026-02-01-new/)"), sparse);
        assertTrue(sparse.contains("| spmv | 27pt:8x8x8 nnz=13824 | cuda:0 | fp64 | 0.5000 | 2000 GB/s | 2.00 copy | 8.00x | ok (1e-16) |"), sparse);
        assertTrue(sparse.contains("| spmv | 27pt:16x16x16 nnz=97336 | cusparse:0 | fp64 | 0.8000 |"), sparse);
        assertFalse(sparse.contains("777"), "the older run is not used: " + sparse);
        assertFalse(sparse.contains("| cholesky"), "linalg's rows are on its own page: " + sparse);
        assertTrue(sparse.contains("| SpmvBenchmark.squall | device=cuda format=csr | 12.50 ± 0.50 | us/op |"), sparse);
        assertTrue(sparse.contains("java -jar bench/target/benchmarks.jar SpmvBenchmark"), sparse);
        assertTrue(sparse.indexOf("27pt:8x8x8 nnz=13824 | cuda:0") < sparse.indexOf("27pt:16x16x16 nnz=97336 | cuda:0"), "smaller sizes first");
        for (String png : new String[]{"img/sparse.png", "img/sparse-spmv.png", "img/linalg.png", "img/overview.png"}) {
            byte[] b = Files.readAllBytes(docs.resolve(png));
            assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', png + " is a PNG");
            if (!png.contains("overview")) assertTrue(Files.readString(docs.resolve(png.contains("linalg") ? "linalg.md" : "sparse.md")).contains("(" + png + ")"), png);
        }
        String linalg = Files.readString(docs.resolve("linalg.md"));
        assertTrue(linalg.contains("| cholesky | 10 x n=64 | cuda:0 | fp64 | 2.000 | 500.0 GFLOP/s | 0.50 fma | - | ok (1e-16) |"), linalg);
        assertTrue(Files.readString(docs.resolve("hmatrix.md")).contains("No run under `bench/results/h100` holds these workloads yet"));
    }
}
