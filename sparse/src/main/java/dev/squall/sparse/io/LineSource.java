package dev.squall.sparse.io;

import dev.squall.sparse.io.MatrixMarketHeader.Field;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Lines of a text stream as bytes, with a cursor for reading numbers from the current line.
 * No object is created per line or per token on the fast paths; errors carry the line number.
 * A line longer than {@link #MAX_LINE} bytes is an error (Matrix Market lines hold at most 1024
 * characters), so a binary file cannot make the line buffer grow with the file.
 */
final class LineSource {
    /** Exact powers of ten for the Clinger fast path: 10^k is exact in a double for k <= 22. */
    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int k = 0; k < POW10.length; k++) {
            POW10[k] = p;
            p *= 10;
        }
    }

    /** The longest line accepted, in bytes. */
    static final int MAX_LINE = 1 << 16;
    /** The longest piece of a line quoted in an error message. */
    private static final int QUOTE = 40;

    private final InputStream in;
    private final String name;
    private final byte[] buf = new byte[1 << 16];
    private int bufPos;
    private int bufLim;
    private byte[] line = new byte[256];
    private int len;
    private int pos;
    private long lineNo;
    private long bytesRead;

    LineSource(InputStream in, String name) {
        this.in = in;
        this.name = name;
    }

    /** Advances to the next line; false at end of input. */
    boolean next() throws IOException {
        len = 0;
        pos = 0;
        boolean any = false;
        while (true) {
            if (bufPos == bufLim) {
                bufLim = in.read(buf, 0, buf.length);
                bufPos = 0;
                if (bufLim <= 0) {
                    bufLim = 0;
                    if (any) lineNo++;
                    return any;
                }
                bytesRead += bufLim;
            }
            any = true;
            int start = bufPos;
            while (bufPos < bufLim && buf[bufPos] != '\n') bufPos++;
            append(start, bufPos - start);
            if (bufPos < bufLim) {
                bufPos++; // the newline
                lineNo++;
                if (len > 0 && line[len - 1] == '\r') len--;
                return true;
            }
        }
    }

    private void append(int from, int n) {
        if (len + n > MAX_LINE) {
            throw new MatrixMarketException(name, lineNo + 1, "line is longer than " + MAX_LINE
                    + " bytes; a Matrix Market file is text with short lines (is this a binary file?)");
        }
        if (len + n > line.length) line = java.util.Arrays.copyOf(line, Math.max(len + n, 2 * line.length));
        System.arraycopy(buf, from, line, len, n);
        len += n;
    }

    /** Bytes of the input consumed so far: up to and including the current line's newline. */
    long offset() {
        return bytesRead - (bufLim - bufPos);
    }

    /** The current line for an error message: printable ASCII, other bytes as {@code \xNN}, cut after 40 bytes. */
    String quoted() {
        return quote(0, len);
    }

    /**
     * The whitespace-separated words of the current line, lower-cased; null if the line holds a
     * byte outside printable ASCII and tab (Matrix Market banners and size lines are plain ASCII).
     */
    String[] asciiWords() {
        for (int i = 0; i < len; i++) {
            if ((line[i] < 0x20 || line[i] > 0x7e) && !isSpace(line[i])) return null;
        }
        java.util.List<String> words = new java.util.ArrayList<>();
        for (pos = 0, skipSpaces(); pos < len; skipSpaces()) {
            int end = tokenEnd();
            words.add(new String(line, pos, end - pos, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT));
            pos = end;
        }
        return words.toArray(new String[0]);
    }

    boolean isBlank() {
        for (int i = 0; i < len; i++) if (!isSpace(line[i])) return false;
        return true;
    }

    boolean startsWith(char c) {
        return len > 0 && line[0] == c;
    }

    /** The 1-based number of the current line. */
    long lineNumber() {
        return lineNo;
    }

    MatrixMarketException error(String message) {
        return new MatrixMarketException(name, Math.max(lineNo, 1), message);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    private void skipSpaces() {
        while (pos < len && isSpace(line[pos])) pos++;
    }

    private int tokenEnd() {
        int e = pos;
        while (e < len && !isSpace(line[e])) e++;
        return e;
    }

    private String token(int from, int to) {
        return quote(from, to);
    }

    private String quote(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < Math.min(to, from + QUOTE); i++) {
            int b = line[i] & 0xff;
            if (b >= 0x20 && b <= 0x7e) sb.append((char) b);
            else sb.append(String.format("\\x%02x", b));
        }
        if (to - from > QUOTE) sb.append("...");
        return sb.toString();
    }

    /** The next whitespace-separated integer on this line. */
    long nextLong(String what) {
        skipSpaces();
        if (pos == len) throw error("missing " + what);
        int start = pos;
        int end = tokenEnd();
        int p = start;
        boolean neg = false;
        if (line[p] == '-' || line[p] == '+') {
            neg = line[p] == '-';
            p++;
        }
        if (p == end) throw error(what + " '" + token(start, end) + "' is not an integer");
        long v = 0;
        for (; p < end; p++) {
            int d = line[p] - '0';
            if (d < 0 || d > 9) throw error(what + " '" + token(start, end) + "' is not an integer");
            if (v > (Long.MAX_VALUE - d) / 10) throw error(what + " '" + token(start, end) + "' is too large");
            v = v * 10 + d;
        }
        pos = end;
        return neg ? -v : v;
    }

    /** The next value: a finite real, or an integer for the integer field. */
    double nextValue(Field field) {
        if (field == Field.INTEGER) {
            return nextLong("integer value");
        }
        skipSpaces();
        if (pos == len) throw error("missing value");
        int start = pos;
        int end = tokenEnd();
        pos = end;
        double v = fastParse(start, end);
        if (Double.isNaN(v)) {
            // Java also accepts "NaN", "Infinity", hex floats and a trailing d/f: allow only what MM allows
            for (int i = start; i < end; i++) {
                byte b = line[i];
                if (!(b >= '0' && b <= '9') && b != '.' && b != 'e' && b != 'E' && b != '+' && b != '-') {
                    throw error("value '" + token(start, end) + "' is not a decimal number");
                }
            }
            try {
                v = Double.parseDouble(new String(line, start, end - start, StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                throw error("value '" + token(start, end) + "' is not a number");
            }
        }
        if (!Double.isFinite(v)) throw error("value '" + token(start, end) + "' is not a finite number");
        return v;
    }

    /**
     * Parses plain decimals exactly when the digits fit 2^53 and the decimal exponent is at
     * most 22 (Clinger's fast path: one correctly rounded multiply or divide); returns NaN to
     * ask for the slow path otherwise.
     */
    private double fastParse(int start, int end) {
        int p = start;
        boolean neg = false;
        if (line[p] == '-' || line[p] == '+') {
            neg = line[p] == '-';
            p++;
        }
        long mant = 0;
        int digits = 0;
        int exp10 = 0;
        boolean any = false;
        for (; p < end && line[p] >= '0' && line[p] <= '9'; p++) {
            any = true;
            if (mant == 0 && line[p] == '0') continue;
            if (digits >= 18) return Double.NaN;
            mant = mant * 10 + (line[p] - '0');
            digits++;
        }
        if (p < end && line[p] == '.') {
            p++;
            for (; p < end && line[p] >= '0' && line[p] <= '9'; p++) {
                any = true;
                if (mant == 0 && line[p] == '0') {
                    exp10--;
                    continue;
                }
                if (digits >= 18) return Double.NaN;
                mant = mant * 10 + (line[p] - '0');
                digits++;
                exp10--;
            }
        }
        if (!any) return Double.NaN;
        if (p < end && (line[p] == 'e' || line[p] == 'E')) {
            p++;
            boolean eneg = false;
            if (p < end && (line[p] == '-' || line[p] == '+')) {
                eneg = line[p] == '-';
                p++;
            }
            if (p == end) return Double.NaN;
            int e = 0;
            for (; p < end; p++) {
                int d = line[p] - '0';
                if (d < 0 || d > 9 || e > 100000) return Double.NaN;
                e = e * 10 + d;
            }
            exp10 += eneg ? -e : e;
        }
        if (p != end) return Double.NaN;
        if (mant == 0) return neg ? -0.0 : 0.0;
        if (mant > (1L << 53) || exp10 < -22 || exp10 > 22) return Double.NaN;
        double v = exp10 >= 0 ? mant * POW10[exp10] : mant / POW10[-exp10];
        return neg ? -v : v;
    }

    /** Fails unless the rest of the line is blank. */
    void expectEnd(String hint) {
        skipSpaces();
        if (pos < len) throw error("unexpected '" + token(pos, tokenEnd()) + "': " + hint);
    }

    /** Fails if any non-blank line follows. */
    void expectNoMoreData(String message) throws IOException {
        while (next()) {
            if (!isBlank() && !startsWith('%')) throw error(message);
        }
    }
}
