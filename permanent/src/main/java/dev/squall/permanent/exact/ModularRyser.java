package dev.squall.permanent.exact;

import dev.squall.permanent.gray.NijenhuisWilf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The exact permanent of an integer matrix by multi-modular Gray-code Ryser: the Nijenhuis–Wilf
 * sweep ({@link NijenhuisWilf}) modulo word-size primes below 2^31 (the 1/2 of the start vector
 * is the inverse of 2 mod p; products of two residues fit a long), then Chinese remaindering.
 * {@code |perm(A)| <= min(prod ||row_i||_1, prod ||col_j||_1)} ({@link ExactReduction#normBound}),
 * so primes are taken until their product exceeds twice that bound and the symmetric residue is
 * the permanent. (Hadamard's inequality bounds determinants, not permanents: {@code perm(J_n) = n!}
 * exceeds it.) Primes and power-of-two chunks of the sweep run as independent tasks on the threads.
 *
 * <pre>{@code
 * BigInteger p = new ModularRyser(4).permanent(rows);
 * }</pre>
 */
public final class ModularRyser {
    private static final List<Long> PRIMES = new ArrayList<>();
    private final int threads;

    public ModularRyser(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.threads = threads;
    }

    /** The i-th prime below 2^31, counting down from 2^31 - 1. */
    static synchronized long prime(int i) {
        long p = PRIMES.isEmpty() ? 1L << 31 : PRIMES.get(PRIMES.size() - 1);
        while (PRIMES.size() <= i) {
            do p--; while (!BigInteger.valueOf(p).isProbablePrime(64));
            PRIMES.add(p);
        }
        return PRIMES.get(i);
    }

    /** How many primes the CRT needs for this matrix: their product must exceed {@code 2 * bound + 1}. */
    public static int primesNeeded(BigInteger[][] a) {
        BigInteger need = ExactReduction.normBound(a).shiftLeft(1).add(BigInteger.ONE);
        BigInteger m = BigInteger.ONE;
        int k = 0;
        while (m.compareTo(need) <= 0) m = m.multiply(BigInteger.valueOf(prime(k++)));
        return Math.max(k, 1);
    }

    public BigInteger permanent(BigInteger[][] a) {
        int n = a.length;
        NijenhuisWilf.checkOrder(n);
        int k = primesNeeded(a);
        long steps = NijenhuisWilf.steps(n);
        long chunk = Math.max(1L, Long.highestOneBit(Math.max(1L, steps * k / (64L * threads))));
        chunk = Math.min(chunk, steps);
        int chunks = (int) ((steps + chunk - 1) / chunk);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon().name("modular-ryser").unstarted(r));
        try {
            List<List<Future<Long>>> parts = new ArrayList<>();
            for (int q = 0; q < k; q++) {
                long p = prime(q);
                Sweep s = new Sweep(a, p);
                List<Future<Long>> fs = new ArrayList<>();
                for (int c = 0; c < chunks; c++) {
                    long start = c * chunk, end = Math.min(steps, start + chunk);
                    fs.add(pool.submit(() -> s.sum(start, end)));
                }
                parts.add(fs);
            }
            BigInteger value = BigInteger.ZERO, modulus = BigInteger.ONE;
            for (int q = 0; q < k; q++) {
                long p = prime(q), r = 0;
                for (Future<Long> f : parts.get(q)) r = (r + f.get()) % p;
                r = r * ((n & 1) == 1 ? 2 : p - 2) % p; // the final factor 2 (-1)^(n-1)
                // CRT step: value += modulus * ((r - value) / modulus mod p)
                BigInteger bp = BigInteger.valueOf(p);
                BigInteger t = BigInteger.valueOf(r).subtract(value).multiply(modulus.modInverse(bp)).mod(bp);
                value = value.add(modulus.multiply(t));
                modulus = modulus.multiply(bp);
            }
            return value.compareTo(modulus.shiftRight(1)) > 0 ? value.subtract(modulus) : value;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("modular Ryser sweep failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while computing an exact permanent", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One prime's sweep: the matrix reduced mod p in CSC form. */
    private static final class Sweep {
        private final int n;
        private final long p;
        private final long[] a; // row-major residues
        private final int[] colStart, rows;
        private final long[] vals;

        Sweep(BigInteger[][] m, long p) {
            this.n = m.length;
            this.p = p;
            BigInteger bp = BigInteger.valueOf(p);
            a = new long[n * n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i * n + j] = m[i][j].mod(bp).longValue();
            colStart = new int[n + 1];
            int nnz = 0;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < n; i++) if (m[i][j].signum() != 0) nnz++;
                colStart[j + 1] = nnz;
            }
            rows = new int[nnz];
            vals = new long[nnz];
            for (int j = 0, k = 0; j < n; j++) {
                for (int i = 0; i < n; i++) {
                    if (m[i][j].signum() != 0) {
                        rows[k] = i;
                        vals[k++] = a[i * n + j];
                    }
                }
            }
        }

        /** Sum of (-1)^g prod x^(g) mod p over steps [start, end). */
        long sum(long start, long end) {
            long inv2 = (p + 1) / 2;
            long code = NijenhuisWilf.gray(start);
            long[] x = new long[n];
            int zeros = 0;
            for (int i = 0; i < n; i++) {
                long rowSum = 0, chosen = 0;
                for (int j = 0; j < n; j++) {
                    rowSum = (rowSum + a[i * n + j]) % p;
                    if (j < n - 1 && ((code >>> j) & 1L) != 0) chosen = (chosen + a[i * n + j]) % p;
                }
                x[i] = ((a[i * n + n - 1] + chosen + p - rowSum * inv2 % p) % p);
                if (x[i] == 0) zeros++;
            }
            long even = 0, odd = 0;
            for (long g = start; g < end; g++) {
                if (g > start) {
                    int j = Long.numberOfTrailingZeros(g);
                    boolean add = ((g >>> (j + 1)) & 1L) == 0;
                    for (int k = colStart[j], e = colStart[j + 1]; k < e; k++) {
                        int r = rows[k];
                        long old = x[r], v = add ? old + vals[k] : old - vals[k];
                        if (v >= p) v -= p;
                        else if (v < 0) v += p;
                        if (old == 0) zeros--;
                        if (v == 0) zeros++;
                        x[r] = v;
                    }
                }
                if (zeros > 0) continue;
                long prod = x[0];
                for (int i = 1; i < n; i++) prod = prod * x[i] % p;
                if ((g & 1L) == 0) {
                    even += prod;
                    if (even >= p) even -= p;
                } else {
                    odd += prod;
                    if (odd >= p) odd -= p;
                }
            }
            return (even - odd + p) % p;
        }
    }
}
