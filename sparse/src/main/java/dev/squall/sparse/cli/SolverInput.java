package dev.squall.sparse.cli;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.limits.CopyBandwidth;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What {@code squall gs} and {@code squall pcg} share: the matrix from a file or a generator (with the stencil's grid,
 * which multigrid needs), the device's copy bandwidth, the time of one SpMV (the unit of the inspector's cost), JSON quoting.
 *
 * @param name   the file or generator spec
 * @param matrix the matrix
 * @param points stencil points for a generated 7- or 27-point stencil (hpcg included), else 0
 * @param dims   that stencil's grid, else null
 */
record SolverInput(String name, CsrMatrix matrix, int points, int[] dims) {
    /** Reads {@code file} or generates {@code spec} ({@code hpcg:N} means {@code hpcg:NxNxN}). */
    static SolverInput load(Path file, String spec) throws IOException {
        if (file != null) {
            String name = file.toString();
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--matrix " + name + ": no such file");
            try {
                return new SolverInput(name, MatrixMarketReader.read(file), 0, null);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("--matrix " + name + ": no such file");
            }
        }
        String s = spec.strip();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.matches("hpcg[:_]\\d+")) s = s + "x" + s.substring(5) + "x" + s.substring(5);
        CsrMatrix a = MatrixGenerators.generate(s);
        int sep = Math.max(s.indexOf(':'), s.indexOf('_'));
        String kind = s.substring(0, sep).toLowerCase(Locale.ROOT);
        int points = switch (kind) {
            case "hpcg", "27pt" -> 27;
            case "7pt" -> 7;
            default -> 0;
        };
        int[] dims = null;
        if (points > 0) dims = Arrays.stream(s.substring(sep + 1).split("x")).mapToInt(t -> Integer.parseInt(t.strip())).toArray();
        return new SolverInput(s, a, points, dims);
    }

    /** The device's copy bandwidth in GB/s (a STREAM-style copy kernel). */
    static double copyGbs(Device dev) {
        return CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
    }

    /** Milliseconds of one SpMV of {@code a} on {@code dev} in the automatically chosen format (10 back-to-back calls). */
    static double spmvMillis(CsrMatrix a, Precision p, Device dev) {
        try (SpmvExecutor e = SpmvExecutor.create(a, FormatChooser.choose(a, dev).format(), p, dev)) {
            double[] x = new double[a.cols()];
            Arrays.fill(x, 1);
            e.setX(x);
            e.execute();
            e.batchMillis(10);
            return e.batchMillis(10);
        }
    }
}
