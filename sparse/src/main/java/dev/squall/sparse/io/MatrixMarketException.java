package dev.squall.sparse.io;

/**
 * A Matrix Market file that cannot be read: the message names the file and the line
 * ({@code "a.mtx:7: ..."}), or only the file when the problem is the file itself
 * ({@code "a.mtx: is a directory ..."}, line 0).
 *
 * <pre>{@code
 * try { MatrixMarketReader.read(path); }
 * catch (MatrixMarketException e) { System.err.println(e.getMessage()); } // "a.mtx:7: ..."
 * }</pre>
 */
public final class MatrixMarketException extends IllegalArgumentException {
    private final String source;
    private final long line;

    public MatrixMarketException(String source, long line, String message) {
        super(source + (line > 0 ? ":" + line : "") + ": " + message);
        this.source = source;
        this.line = line;
    }

    /** The file (or stream name) being read. */
    public String source() {
        return source;
    }

    /** The 1-based line the problem is on; 0 when it concerns the whole file (missing, a directory, unreadable). */
    public long line() {
        return line;
    }
}
