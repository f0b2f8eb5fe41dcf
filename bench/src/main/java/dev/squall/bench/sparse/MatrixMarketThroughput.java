package dev.squall.bench.sparse;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.RandomMatrices;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.io.MatrixMarketWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Measures the Matrix Market reader on a generated R-MAT matrix: writes it with the writer, then reads it back
 * {@code reads} times (the first read with a cold JIT), printing file size, entries and throughput, and checks
 * the matrix read equals the one written.
 *
 * <pre>{@code
 * java -cp ... dev.squall.bench.sparse.MatrixMarketThroughput 21 16 /tmp/rmat21.mtx 3
 * }</pre>
 */
public final class MatrixMarketThroughput {
    private MatrixMarketThroughput() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: MatrixMarketThroughput SCALE EDGE_FACTOR FILE READS");
            System.exit(2);
        }
        int scale = Integer.parseInt(args[0]);
        int edgeFactor = Integer.parseInt(args[1]);
        Path file = Path.of(args[2]);
        int reads = Integer.parseInt(args[3]);
        long t0 = System.nanoTime();
        CsrMatrix a = RandomMatrices.rmat(scale, edgeFactor, 2026);
        long t1 = System.nanoTime();
        MatrixMarketWriter.write(a, file);
        long t2 = System.nanoTime();
        long bytes = Files.size(file);
        System.out.printf(Locale.ROOT, "matrix rmat:%d (edge factor %d): %d x %d, %d entries, generated in %.1f s%n",
                scale, edgeFactor, a.rows(), a.cols(), a.nnz(), (t1 - t0) / 1e9);
        System.out.printf(Locale.ROOT, "write: %.1f MB in %.2f s = %.0f MB/s%n", bytes / 1e6, (t2 - t1) / 1e9, bytes / 1e6 / ((t2 - t1) / 1e9));
        for (int r = 0; r < reads; r++) {
            long s = System.nanoTime();
            CsrMatrix b = MatrixMarketReader.read(file);
            double sec = (System.nanoTime() - s) / 1e9;
            if (!b.sameAs(a)) throw new IllegalStateException("read " + r + ": the matrix read differs from the one written");
            System.out.printf(Locale.ROOT, "read %d: %.2f s = %.0f MB/s, %.1f M entries/s (matrix equal to the one written)%n",
                    r + 1, sec, bytes / 1e6 / sec, b.nnz() / 1e6 / sec);
        }
    }
}
