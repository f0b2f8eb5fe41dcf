package dev.squall.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Records become one JSON object: snake_case names in declaration order, non-finite numbers null, strings escaped. */
class JsonOutputTest {
    record Sample(String deviceName, double msMedian, Double relError, double notComputed, List<Integer> ranks, Map<String, Double> phaseMs, boolean ok) {
    }

    @Test
    void recordsInDeclarationOrder() throws Exception {
        String text = JsonOutput.toJson(new Sample("a \"quoted\"\\ name\n", 1.5, null, Double.NaN, List.of(1, 2), Map.of("up", Double.POSITIVE_INFINITY), true));
        assertEquals("{\"device_name\":\"a \\\"quoted\\\"\\\\ name\\n\",\"ms_median\":1.5,\"rel_error\":null,\"not_computed\":null,"
                + "\"ranks\":[1,2],\"phase_ms\":{\"up\":null},\"ok\":true}", text);
        JsonNode back = JsonOutput.mapper().readTree(text);
        assertEquals("a \"quoted\"\\ name\n", back.get("device_name").asText());
        assertEquals(1.5, back.get("ms_median").asDouble());
    }
}
