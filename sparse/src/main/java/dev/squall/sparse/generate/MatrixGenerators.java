package dev.squall.sparse.generate;

import dev.squall.sparse.format.CsrMatrix;
import java.util.List;

/**
 * Builds a generated matrix from a {@code NAME:SIZE} description, as the command line's
 * {@code --generate} takes it. Names:
 * <ul>
 * <li>{@code 3pt:N}, {@code 5pt:NXxNY}, {@code 9pt:NXxNY}, {@code 7pt:NXxNYxNZ}, {@code 27pt:NXxNYxNZ}
 *     — Bell and Garland's stencils; their set is written {@code 3pt_1000000} ... {@code 27pt_100x100x100}, also accepted;</li>
 * <li>{@code hpcg:NXxNYxNZ} — HPCG's 27-point problem;</li>
 * <li>{@code rmat:SCALE} or {@code rmat:SCALExEDGEFACTOR} — R-MAT power-law graph, 2^SCALE vertices (edge factor 16);</li>
 * <li>{@code banded:N} or {@code banded:NxHALFWIDTH} (half width 4);</li>
 * <li>{@code blocks:NBxB} or {@code blocks:NBxBxPERROW} — NB block rows of dense BxB blocks (4 per row);</li>
 * <li>{@code skewed:N} or {@code skewed:NxLONG} — 0.1% of rows with LONG (5000) entries, the rest 8.</li>
 * </ul>
 *
 * <pre>{@code
 * CsrMatrix a = MatrixGenerators.generate("27pt:100x100x100");
 * }</pre>
 */
public final class MatrixGenerators {
    /** The names {@link #generate} knows, with an example each. */
    public static final List<String> EXAMPLES = List.of("3pt:1000000", "5pt:1000x1000", "7pt:100x100x100", "9pt:1000x1000",
            "27pt:100x100x100", "hpcg:104x104x104", "rmat:20", "banded:1000000x4", "blocks:100000x4", "skewed:1000000");

    private static final long SEED = 20240917L;

    private MatrixGenerators() {
    }

    /**
     * The matrix described by {@code spec}.
     *
     * @throws IllegalArgumentException naming the part of the description that is wrong
     */
    public static CsrMatrix generate(String spec) {
        String s = spec.strip();
        int sep = s.indexOf(':');
        if (sep < 0) sep = s.indexOf('_');
        if (sep < 0) throw new IllegalArgumentException("--generate '" + spec + "': expected NAME:SIZE, e.g. " + EXAMPLES);
        String name = s.substring(0, sep).toLowerCase();
        int[] d = sizes(spec, s.substring(sep + 1));
        return switch (name) {
            case "3pt", "5pt", "7pt", "9pt", "27pt" -> Stencils.of(Integer.parseInt(name.substring(0, name.length() - 2)), d);
            case "hpcg" -> {
                need(spec, d, 3, 3);
                yield Stencils.hpcg(d[0], d[1], d[2]);
            }
            case "rmat" -> {
                need(spec, d, 1, 2);
                yield RandomMatrices.rmat(d[0], d.length > 1 ? d[1] : 16, SEED);
            }
            case "banded" -> {
                need(spec, d, 1, 2);
                yield RandomMatrices.banded(d[0], d.length > 1 ? d[1] : 4, SEED);
            }
            case "blocks" -> {
                need(spec, d, 2, 3);
                yield RandomMatrices.blocks(d[0], d[1], d.length > 2 ? d[2] : 4, SEED);
            }
            case "skewed" -> {
                need(spec, d, 1, 2);
                yield RandomMatrices.skewed(d[0], 0.001, d.length > 1 ? d[1] : 5000, 8, SEED);
            }
            default -> throw new IllegalArgumentException("--generate '" + spec + "': unknown matrix '" + name
                    + "'; known: " + EXAMPLES);
        };
    }

    private static void need(String spec, int[] d, int min, int max) {
        if (d.length < min || d.length > max) {
            throw new IllegalArgumentException("--generate '" + spec + "': expected " + (min == max ? "" + min : min + " to " + max)
                    + " sizes separated by 'x', got " + d.length);
        }
    }

    private static int[] sizes(String spec, String text) {
        String[] parts = text.split("x");
        int[] d = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                d[i] = Integer.parseInt(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--generate '" + spec + "': size '" + parts[i] + "' is not an integer");
            }
            if (d[i] <= 0) throw new IllegalArgumentException("--generate '" + spec + "': size " + d[i] + " must be positive");
        }
        return d;
    }
}
