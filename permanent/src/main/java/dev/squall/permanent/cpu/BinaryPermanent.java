package dev.squall.permanent.cpu;

import dev.squall.permanent.numeric.BregmanBound;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exact permanents of 0/1 matrices (numbers of perfect matchings) by the Nijenhuis–Wilf Gray-code
 * sweep in integers. The half-integers x_i are doubled ({@code y = 2x}, small integers), products
 * and sums are kept modulo 2^128 in two longs, and the sum {@code T = 2^n sum (-1)^g prod x} is
 * divided by 2^(n-1) at the end; this leaves the permanent modulo 2^(129-n), which is the permanent
 * itself whenever Bregman's bound {@code prod_i (r_i!)^(1/r_i)} (r_i the row degrees) is below
 * that modulus — always for results that fit 64 bits, since n &lt;= 63.
 *
 * <pre>{@code
 * BinaryPermanent.Result r = new BinaryPermanent(4).of(a);   // 4 threads
 * if (r.exact()) System.out.println(r.value());               // BigInteger
 * }</pre>
 */
public final class BinaryPermanent {
    /**
     * @param value     the permanent when {@code exact}, else the permanent modulo {@code 2^modulusBits}
     * @param exact     whether {@code value} is the permanent (Bregman's bound is below the modulus)
     * @param modulusBits bits of the modulus the sweep works in
     */
    public record Result(BigInteger value, boolean exact, int modulusBits) {
        /** Whether the exact value fits a signed 64-bit integer. */
        public boolean fitsLong() {
            return exact && value.bitLength() < 64;
        }
    }

    private final int threads;

    public BinaryPermanent(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.threads = threads;
    }

    /** @throws IllegalArgumentException when an entry is not 0 or 1, or n is outside [1, 63] */
    public Result of(SquareMatrix a) {
        int n = a.n();
        NijenhuisWilf.checkOrder(n);
        if (!a.isBinary()) throw new IllegalArgumentException("the exact integer path needs a 0/1 matrix");
        int modulusBits = 129 - n;
        if (BregmanBound.log2(a) >= modulusBits - 1) {
            // still compute: the residue is useful, but say it is not the value
            return new Result(sweep(a).mod(BigInteger.ONE.shiftLeft(modulusBits)), false, modulusBits);
        }
        return new Result(sweep(a).mod(BigInteger.ONE.shiftLeft(modulusBits)), true, modulusBits);
    }

    /** perm(A) modulo 2^(129-n), as a (possibly negative) BigInteger congruent to it. */
    private BigInteger sweep(SquareMatrix a) {
        int n = a.n();
        long steps = NijenhuisWilf.steps(n);
        long chunk = Math.max(1L, Long.highestOneBit(Math.max(1L, steps / ChunkedJvmPermanent.TARGET_CHUNKS)));
        int chunks = (int) ((steps + chunk - 1) / chunk);
        long[] col2 = new long[n * n]; // 2 a_ij, column-major
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) col2[j * n + i] = 2 * (long) a.get(i, j);
        long[] hi = new long[chunks], lo = new long[chunks];
        AtomicInteger next = new AtomicInteger();
        Runnable work = () -> {
            long[] y = new long[n];
            for (int c; (c = next.getAndIncrement()) < chunks; ) {
                long start = c * chunk, end = Math.min(steps, start + chunk);
                double[] x = NijenhuisWilf.startVector(a, start);
                for (int i = 0; i < n; i++) y[i] = Math.round(2 * x[i]);
                long sh = 0, sl = 0;
                for (long g = start; g < end; g++) {
                    if (g > start) {
                        int j = Long.numberOfTrailingZeros(g);
                        long s = ((g >>> (j + 1)) & 1L) == 0 ? 1 : -1;
                        for (int i = 0, off = j * n; i < n; i++) y[i] += s * col2[off + i];
                    }
                    long ph = 0, pl = 1;
                    boolean zero = false;
                    for (int i = 0; i < n && !zero; i++) {
                        long v = y[i];
                        if (v == 0) {
                            zero = true;
                            break;
                        }
                        long nh = ph * v + Math.unsignedMultiplyHigh(pl, v) - (v < 0 ? pl : 0);
                        pl = pl * v;
                        ph = nh;
                    }
                    if (zero) continue;
                    if ((g & 1) == 1) { // negate
                        ph = ~ph + (pl == 0 ? 1 : 0);
                        pl = -pl;
                    }
                    long nl = sl + pl;
                    sh = sh + ph + (Long.compareUnsigned(nl, sl) < 0 ? 1 : 0);
                    sl = nl;
                }
                hi[c] = sh;
                lo[c] = sl;
            }
        };
        WorkerThreads.run(work, Math.min(threads, chunks), "binary-permanent", "computing a 0/1 permanent");
        long th = 0, tl = 0;
        for (int c = 0; c < chunks; c++) {
            long nl = tl + lo[c];
            th = th + hi[c] + (Long.compareUnsigned(nl, tl) < 0 ? 1 : 0);
            tl = nl;
        }
        BigInteger t = BigInteger.valueOf(th).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(tl)));
        // T = (-1)^(n-1) 2^(n-1) perm  (mod 2^128)
        BigInteger p = t.shiftRight(n - 1);
        return (n & 1) == 1 ? p : p.negate();
    }
}
