package dev.squall.sparse.cli;

import dev.squall.cli.Progress;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketReader;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a {@code --matrix} Matrix Market file for a command, with a progress bar over its bytes on long reads. */
public final class MatrixFile {
    private MatrixFile() {
    }

    /**
     * The matrix in {@code file}; bad input naming the file when it is missing or not a regular file, and the reader's
     * own errors (file and line) for bad contents. {@code progress}: draw a bar (see {@code RunOptions.progress()}).
     */
    public static CsrMatrix read(Path file, boolean progress) throws IOException {
        if (!Files.exists(file)) throw new IllegalArgumentException("--matrix " + file + ": no such file");
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--matrix " + file + ": not a regular file");
        try (Progress bar = Progress.open(progress, "reading " + file.getFileName(), Files.size(file), "bytes");
             InputStream in = new Counting(new BufferedInputStream(Files.newInputStream(file), 1 << 16), bar)) {
            return MatrixMarketReader.read(in, file.toString());
        }
    }

    /** Reports the bytes read so far to a progress bar. */
    private static final class Counting extends FilterInputStream {
        private final Progress bar;
        private long count;

        Counting(InputStream in, Progress bar) {
            super(in);
            this.bar = bar;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) bar.stepTo(++count);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) bar.stepTo(count += n);
            return n;
        }
    }
}
