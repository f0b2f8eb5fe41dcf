package dev.squall.bench.suite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.cli.JsonOutput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run against an earlier one ({@code squall bench --compare OLD.json}): the same workload, size and device in both
 * is a regression when its median time grew by more than the run-to-run spread either run measured (the larger of
 * the two (max - min) / median of its samples): new / old - 1 above it; faster when old / new - 1 is above it (so a
 * noisy timing can still show a large speedup); the same otherwise.
 */
public final class Comparison {
    private Comparison() {
    }

    /** One timing: where it was taken, the median of its samples, their spread. */
    public record Entry(String workload, String size, String device, double medianMs, double spread) {
        String key() {
            return workload + "\u0000" + size + "\u0000" + device;
        }
    }

    /**
     * One workload, size and device in both runs: old and new medians, new / old, the spread allowed (the larger
     * measured spread), and the verdict: regression, faster or same.
     */
    public record Delta(String workload, String size, String device, double oldMs, double newMs, double ratio, double allowedSpread, String verdict) {
        public boolean regression() {
            return verdict.equals("regression");
        }
    }

    /** The entry of a measurement. */
    public static Entry of(Measurement m) {
        return new Entry(m.workload(), m.size(), m.device(), m.medianMs(), m.spread());
    }

    /** The deltas of every entry of {@code now} that {@code old} also holds, in {@code now}'s order. */
    public static List<Delta> compare(List<Entry> old, List<Entry> now) {
        Map<String, Entry> before = new LinkedHashMap<>();
        for (Entry e : old) before.put(e.key(), e);
        List<Delta> out = new ArrayList<>();
        for (Entry e : now) {
            Entry o = before.get(e.key());
            if (o == null) continue;
            double ratio = e.medianMs() / o.medianMs();
            double allowed = Math.max(o.spread(), e.spread());
            String verdict = ratio - 1 > allowed ? "regression" : 1 / ratio - 1 > allowed ? "faster" : "same";
            out.add(new Delta(e.workload(), e.size(), e.device(), o.medianMs(), e.medianMs(), ratio, allowed, verdict));
        }
        return out;
    }

    /**
     * The rows of a {@code squall bench --json} result (or a file it wrote with {@code --out}).
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static List<Entry> read(Path file) throws IOException {
        JsonNode root;
        try {
            root = JsonOutput.mapper().readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--compare " + file + ": no such file");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("--compare " + file + ": not JSON (" + e.getOriginalMessage() + ")");
        }
        JsonNode rows = root == null ? null : root.get("rows");
        if (rows == null || !rows.isArray()) throw new IllegalArgumentException("--compare " + file + ": no \"rows\" array (write one with squall bench --out DIR)");
        List<Entry> out = new ArrayList<>();
        int i = 0;
        for (JsonNode r : rows) {
            for (String f : List.of("workload", "size", "device", "median_ms", "spread")) {
                if (r.get(f) == null || r.get(f).isNull()) throw new IllegalArgumentException("--compare " + file + ": row " + i + " has no " + f);
            }
            out.add(new Entry(r.get("workload").asText(), r.get("size").asText(), r.get("device").asText(), r.get("median_ms").asDouble(), r.get("spread").asDouble()));
            i++;
        }
        return out;
    }
}
