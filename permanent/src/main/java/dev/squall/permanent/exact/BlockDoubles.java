package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigInteger;

/**
 * An integer block as doubles for the floating-point paths: each column scaled by a power of two
 * so its largest entry lies in [1/2, 1), each entry rounded once, so
 * {@code perm(integers) = 2^exponent * perm(matrix)} up to that rounding; {@code exact} says
 * whether no entry was rounded.
 *
 * <pre>{@code
 * BlockDoubles d = BlockDoubles.of(rows);
 * }</pre>
 */
public record BlockDoubles(SquareMatrix matrix, long exponent, boolean exact) {
    public static BlockDoubles of(BigInteger[][] a) {
        int n = a.length;
        double[] v = new double[n * n];
        long exponent = 0;
        boolean exact = true;
        for (int j = 0; j < n; j++) {
            // each column scaled so its largest entry is about 1: merged columns carry the products of
            // other rows' scalings, and Ryser's sum loses a column far smaller than the others
            int bits = 0;
            for (int i = 0; i < n; i++) bits = Math.max(bits, a[i][j].bitLength());
            for (int i = 0; i < n; i++) {
                BigInteger b = a[i][j];
                if (b.signum() == 0) continue;
                if (b.bitLength() - b.getLowestSetBit() > 53 || bits - b.getLowestSetBit() > 1070) exact = false;
                int drop = Math.max(0, b.bitLength() - 64); // keep the top 64 bits (truncating the magnitude), then scale
                double d = Math.scalb(b.abs().shiftRight(drop).doubleValue(), drop - bits);
                v[i * n + j] = b.signum() < 0 ? -d : d;
            }
            exponent += bits;
        }
        return new BlockDoubles(SquareMatrix.of(n, v), exponent, exact);
    }
}
