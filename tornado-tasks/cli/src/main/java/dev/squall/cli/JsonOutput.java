package dev.squall.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.io.PrintStream;

/**
 * Writes every command's {@code --json} output with Jackson: a result record becomes one JSON object on one line,
 * record components in declaration order, names in snake_case ({@code msMedian} → {@code ms_median}), NaN and
 * infinities as {@code null} (a value that was not computed), strings escaped by the library. The schemas are the
 * result records' Javadoc and {@code tornado-tasks/cli/JSON.md}.
 */
public final class JsonOutput {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            // public accessors of exported records need no setAccessible (which a named module would refuse)
            .disable(MapperFeature.OVERRIDE_PUBLIC_ACCESS_MODIFIERS)
            .addModule(new SimpleModule("squall-finite-numbers")
                    .addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(double.class, new FiniteOrNull()))
            .build();

    private JsonOutput() {
    }

    /** The configured mapper (tests read the output back with it). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code value} as one line of JSON. */
    public static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Prints {@code value} as one line of JSON on {@code out}. */
    public static void print(PrintStream out, Object value) {
        out.println(toJson(value));
    }

    /** Prints {@code value} as one line of JSON on stdout. */
    public static void print(Object value) {
        print(System.out, value);
    }

    private static final class FiniteOrNull extends JsonSerializer<Double> {
        @Override
        public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (v == null || !Double.isFinite(v)) g.writeNull();
            else g.writeNumber(v);
        }
    }
}
