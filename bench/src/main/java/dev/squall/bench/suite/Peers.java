package dev.squall.bench.suite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.cli.JsonOutput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Results of other libraries on the same workloads ({@code squall bench --peers FILE}): files in the schema
 * {@code squall bench --out} writes (tornado-tasks/cli/JSON.md), as the scripts of bench/peers/ write them for cuSPARSE,
 * cuSOLVER and PyTorch. Each peer is a device of its own (cusparse:0, torch:cuda:0), so the runner's table, CSV and
 * charts put it next to Squall's devices. Their rows are taken as written: the peer scripts verify their own results.
 */
public final class Peers {
    private Peers() {
    }

    /** A peer file: its devices (id, name, limits; NaN where the file has none) and its rows. */
    public record File(List<Device> devices, List<Measurement> rows) {
    }

    /** A peer as a device: id, name, copy GB/s and multiply-add GFLOP/s (NaN when unknown). */
    public record Device(String id, String name, double copyGbs, double fmaGflops) {
    }

    private static final List<String> REQUIRED = List.of("workload", "title", "size", "scale", "device", "precision", "samples_ms",
            "median_ms", "spread", "bound", "work", "rate", "error", "tolerance", "checked_against", "ok");

    /**
     * Reads {@code file}.
     *
     * @throws IllegalArgumentException naming the file, the row and the field that is missing or wrong
     */
    public static File read(Path file) throws IOException {
        JsonNode root;
        try {
            root = JsonOutput.mapper().readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--peers " + file + ": no such file");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("--peers " + file + ": not JSON (" + e.getOriginalMessage() + ")");
        }
        JsonNode rows = root == null ? null : root.get("rows");
        if (rows == null || !rows.isArray()) throw new IllegalArgumentException("--peers " + file + ": no \"rows\" array (the bench/peers/ scripts write one)");
        List<Device> devices = new ArrayList<>();
        JsonNode ds = root.get("devices");
        if (ds != null && ds.isArray()) {
            for (JsonNode d : ds) devices.add(new Device(d.path("device").asText(), d.path("name").asText(), number(d.get("copy_gbs")), number(d.get("fma_gflops"))));
        }
        List<Measurement> out = new ArrayList<>();
        int i = 0;
        for (JsonNode r : rows) {
            for (String f : REQUIRED) {
                if (r.get(f) == null || r.get(f).isNull()) throw new IllegalArgumentException("--peers " + file + ": row " + i + " has no " + f);
            }
            Bound bound;
            try {
                bound = Bound.valueOf(r.get("bound").asText().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--peers " + file + ": row " + i + ": bound '" + r.get("bound").asText() + "' is neither memory nor compute");
            }
            double[] samples = new double[r.get("samples_ms").size()];
            for (int s = 0; s < samples.length; s++) samples[s] = r.get("samples_ms").get(s).asDouble();
            if (samples.length == 0) throw new IllegalArgumentException("--peers " + file + ": row " + i + " has no samples");
            double limit = number(r.get("limit"));
            double rate = r.get("rate").asDouble();
            out.add(new Measurement(r.get("workload").asText(), r.get("title").asText(), r.get("size").asText(), r.get("scale").asDouble(),
                    r.path("scale_unit").asText(""), r.get("device").asText(), r.get("precision").asText(), samples, r.get("median_ms").asDouble(),
                    r.get("spread").asDouble(), bound, r.get("work").asDouble(), rate, limit, rate / limit, r.path("note").asText(""),
                    r.get("error").asDouble(), r.get("tolerance").asDouble(), r.get("checked_against").asText(), r.get("ok").asBoolean(),
                    number(r.get("wall_ms"))));
            i++;
        }
        return new File(devices, out);
    }

    private static double number(JsonNode n) {
        return n == null || n.isNull() || !n.isNumber() ? Double.NaN : n.asDouble();
    }
}
