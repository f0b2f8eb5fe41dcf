package dev.squall.linalg.cli;

import dev.squall.cli.Sizes;
import picocli.CommandLine.Option;

/** {@code --m}, {@code --n} and {@code --batch} of the commands on batches of small m x n matrices (qr, svd). */
public final class MatrixBatchOptions {
    /** Most columns the one-group-per-matrix kernels take. */
    static final int MAX_COLUMNS = 64;

    @Option(names = "--m", paramLabel = "M", required = true, description = "rows")
    int m;

    @Option(names = "--n", paramLabel = "N", required = true, description = "columns, 1.." + MAX_COLUMNS)
    int n;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "1", description = "number of matrices (default ${DEFAULT-VALUE})")
    int batch;

    /** Rejects non-positive sizes, more than {@link #MAX_COLUMNS} columns, and batches beyond int indexing. */
    void check() {
        Sizes.inRange("--m", m, 1, Integer.MAX_VALUE);
        Sizes.inRange("--n", n, 1, MAX_COLUMNS);
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        Sizes.intElements("--batch x --m x --n", batch, m, n);
    }
}
