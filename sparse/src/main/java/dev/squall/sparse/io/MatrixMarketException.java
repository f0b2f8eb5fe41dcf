package dev.squall.sparse.io;

/**
 * A Matrix Market file that cannot be read: the message names the file and the line.
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
        super(source + ":" + line + ": " + message);
        this.source = source;
        this.line = line;
    }

    /** The file (or stream name) being read. */
    public String source() {
        return source;
    }

    /** The 1-based line the problem is on. */
    public long line() {
        return line;
    }
}
