package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigInteger;

/**
 * An integer block as doubles for the floating-point paths: each row shifted by a power of two
 * (so the largest entry stays far inside the double range) and each entry rounded once, so
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
        for (int i = 0; i < n; i++) {
            int bits = 0;
            for (int j = 0; j < n; j++) bits = Math.max(bits, a[i][j].bitLength());
            int shift = Math.max(0, bits - 900);
            for (int j = 0; j < n; j++) {
                BigInteger b = a[i][j];
                if (b.signum() == 0) continue;
                if (b.getLowestSetBit() < shift || b.bitLength() - b.getLowestSetBit() > 53) exact = false;
                int drop = Math.max(0, b.bitLength() - 64); // keep the top 64 bits (truncating the magnitude), then scale
                BigInteger top = b.abs().shiftRight(drop);
                double d = Math.scalb(top.doubleValue(), drop - shift);
                v[i * n + j] = b.signum() < 0 ? -d : d;
            }
            exponent += shift;
        }
        return new BlockDoubles(SquareMatrix.of(n, v), exponent, exact);
    }
}
