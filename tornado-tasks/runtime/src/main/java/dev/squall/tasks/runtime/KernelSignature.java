package dev.squall.tasks.runtime;

import dev.squall.tasks.api.*;
import dev.squall.tasks.api.spi.KernelInfo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a kernel compiled at run time takes, and how it is launched: its parameters in order (arrays of an element
 * type, scalars of a primitive type) and its style. Tasks running the kernel are checked against it before launch,
 * and the arguments are passed to the device as for compiled kernels (see {@link KernelSource}). Immutable: each
 * method returns a new signature.
 *
 * <ul>
 * <li>{@link #spmd()}: one work-item per point of the grid given by {@link ExecutionPlan#withGrid}, as compiled SPMD
 *     kernels. {@link #withBarriers()} declares that work-items of a group cooperate through local memory, barriers or
 *     sub-group operations (the JVM then runs a group's items concurrently).</li>
 * <li>{@link #loop()}: a loop-parallel kernel over {@code n} iterations, where {@code n} is its first parameter
 *     ({@code int} or {@code long}). The runtime chooses the grid as for compiled loop kernels; work-item {@code i}
 *     handles iterations {@code i, i + G, i + 2G, ... < n} for a 1-D global size {@code G} (usually {@code G >= n}, so
 *     a guard {@code if (i < n)} does, but a grid-stride loop is what is guaranteed to cover large {@code n}).</li>
 * </ul>
 *
 * <pre>{@code
 * KernelSignature s = KernelSignature.spmd().array("x", DoubleArray.class).scalar("a", double.class);
 * }</pre>
 */
public final class KernelSignature {
    /**
     * One parameter.
     *
     * @param name a name for messages (the source may name it differently)
     * @param type a Squall array class ({@code DoubleArray.class}, ...) or a primitive class ({@code int.class}, ...)
     */
    public record Parameter(String name, Class<?> type) {
        public Parameter {
            Objects.requireNonNull(name, "parameter name");
            Objects.requireNonNull(type, "parameter type");
        }

        /** A Squall array (passed as a pointer and a 64-bit length). */
        public boolean isArray() {
            return KernelArray.class.isAssignableFrom(type);
        }

        @Override
        public String toString() {
            return type.getSimpleName() + " " + name;
        }
    }

    private static final Map<Class<?>, String> ARRAY_ELEMENTS = Map.of(ByteArray.class, "byte", ShortArray.class, "short",
            IntArray.class, "int", LongArray.class, "long", FloatArray.class, "float", DoubleArray.class, "double");
    private static final Set<Class<?>> SCALARS = Set.of(byte.class, short.class, int.class, long.class, float.class, double.class, boolean.class);
    private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final boolean spmd;
    private final boolean barriers;
    private final List<Parameter> parameters;

    private KernelSignature(boolean spmd, boolean barriers, List<Parameter> parameters) {
        this.spmd = spmd;
        this.barriers = barriers;
        this.parameters = List.copyOf(parameters);
    }

    /** An SPMD kernel with no parameters yet; its launches need a grid ({@link ExecutionPlan#withGrid}). */
    public static KernelSignature spmd() {
        return new KernelSignature(true, false, List.of());
    }

    /** A loop-parallel kernel with no parameters yet; its first parameter must be the iteration count (int or long). */
    public static KernelSignature loop() {
        return new KernelSignature(false, false, List.of());
    }

    /** Adds an array parameter of this Squall array class. */
    public KernelSignature array(String name, Class<? extends KernelArray> type) {
        if (!ARRAY_ELEMENTS.containsKey(type)) throw new IllegalArgumentException("parameter " + name + ": " + type.getName() + " is not a Squall array class");
        return with(new Parameter(name, type));
    }

    /** Adds a scalar parameter of this primitive type ({@code int.class}, {@code double.class}, ...). */
    public KernelSignature scalar(String name, Class<?> type) {
        if (!SCALARS.contains(type)) {
            throw new IllegalArgumentException("parameter " + name + ": scalars are byte, short, int, long, float, double or boolean, got " + type.getName());
        }
        return with(new Parameter(name, type));
    }

    /** Work-items of a group use local memory, barriers or sub-group operations (SPMD only). */
    public KernelSignature withBarriers() {
        if (!spmd) throw new IllegalArgumentException("only SPMD kernels have work-groups that synchronise; loop kernels cannot use barriers");
        return new KernelSignature(true, true, parameters);
    }

    public boolean isSpmd() {
        return spmd;
    }

    public boolean hasBarriers() {
        return barriers;
    }

    public List<Parameter> parameters() {
        return parameters;
    }

    private KernelSignature with(Parameter p) {
        if (p.name().isBlank()) throw new IllegalArgumentException("a parameter needs a name");
        Set<String> names = new HashSet<>();
        for (Parameter q : parameters) names.add(q.name());
        if (!names.add(p.name())) throw new IllegalArgumentException("two parameters named " + p.name());
        List<Parameter> ps = new ArrayList<>(parameters);
        ps.add(p);
        return new KernelSignature(spmd, barriers, ps);
    }

    /** The runtime's description of the kernel called {@code name} in the source. */
    KernelInfo info(String name) {
        if (name == null || !C_IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("a kernel name must be a C identifier (the kernel's function name in the source), got " + name);
        }
        if (!spmd && (parameters.isEmpty() || parameters.get(0).isArray()
                || (parameters.get(0).type() != int.class && parameters.get(0).type() != long.class))) {
            throw new IllegalArgumentException("loop kernel " + name + ": the first parameter must be the iteration count (int or long), got "
                    + (parameters.isEmpty() ? "no parameters" : parameters.get(0)));
        }
        List<KernelInfo.Param> ps = new ArrayList<>();
        for (Parameter p : parameters) {
            ps.add(p.isArray() ? new KernelInfo.Param(p.name(), KernelInfo.Kind.ARRAY, ARRAY_ELEMENTS.get(p.type()), false)
                    : new KernelInfo.Param(p.name(), KernelInfo.Kind.SCALAR, p.type().getName(), false));
        }
        return new KernelInfo(name, spmd ? KernelInfo.Style.SPMD : KernelInfo.Style.LOOP, spmd ? 0 : 1, barriers, ps, 0);
    }

    @Override
    public String toString() {
        return (spmd ? "spmd" + (barriers ? " with barriers" : "") : "loop") + parameters.stream().map(Parameter::toString).toList()
                .toString().replace('[', '(').replace(']', ')');
    }
}
