package dev.squall.sparse.io;

import dev.squall.sparse.format.CsrMatrix;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a CSR matrix as raw little-endian arrays for peers (NumPy {@code fromfile}) to load
 * the very same matrix: {@code NAME.shape.txt} ("rows cols nnz"), {@code NAME.ptr.i32},
 * {@code NAME.col.i32}, {@code NAME.val.f64}.
 *
 * <pre>{@code
 * CsrDump.write(a, Path.of("/tmp/m"), "27pt");
 * }</pre>
 */
public final class CsrDump {
    private CsrDump() {
    }

    public static void write(CsrMatrix a, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".shape.txt"), a.rows() + " " + a.cols() + " " + a.nnz() + "\n");
        int[] ptr = a.rowPtr();
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(dir.resolve(name + ".ptr.i32")), 1 << 20)) {
            writeInts(o, ptr);
        }
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(dir.resolve(name + ".col.i32")), 1 << 20)) {
            writeInts(o, a.colIdx());
        }
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(dir.resolve(name + ".val.f64")), 1 << 20)) {
            double[] v = a.values();
            ByteBuffer b = ByteBuffer.allocate(8 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < v.length; i++) {
                if (!b.hasRemaining()) flush(o, b);
                b.putDouble(v[i]);
            }
            flush(o, b);
        }
    }

    private static void writeInts(OutputStream o, int[] v) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 << 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            if (!b.hasRemaining()) flush(o, b);
            b.putInt(x);
        }
        flush(o, b);
    }

    private static void flush(OutputStream o, ByteBuffer b) throws IOException {
        o.write(b.array(), 0, b.position());
        b.clear();
    }
}
