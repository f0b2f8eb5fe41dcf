package dev.squall.linalg.cli;

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
        if (m < 1 || n < 1 || batch < 1) throw new IllegalArgumentException("--m, --n and --batch must be >= 1, got " + m + ", " + n + ", " + batch);
        if (n > MAX_COLUMNS) throw new IllegalArgumentException("--n must be <= " + MAX_COLUMNS + ", got " + n);
        Report.checkElements((long) m * n * batch, "--batch x --m x --n");
    }
}
