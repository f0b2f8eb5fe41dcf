package dev.squall.linalg.gemm;

import dev.squall.tasks.api.IntArray;

/**
 * The marshaled description of a batch of GEMMs {@code C_e = alpha op(A_e) op(B_e) + beta C_e}:
 * per entry the sizes {@code m, n, k} of {@code op(A_e)} ({@code m x k}) and {@code op(B_e)}
 * ({@code k x n}), and for each operand its offset into one contiguous column-major data array
 * and its leading dimension. Uniform batches repeat the sizes; variable-size batches (H2 ranks
 * that differ per level) give them per entry. Sizes are checked here, bounds at launch.
 *
 * <pre>{@code
 * // 100 uniform 64 x 64 products stored back to back
 * BatchDescriptor d = BatchDescriptor.strided(100, 64, 64, 64, 64 * 64, 64 * 64, 64 * 64);
 * }</pre>
 */
public final class BatchDescriptor {
    static final int FIELDS = 9;
    private final int[] v;
    private final int count;

    private BatchDescriptor(int[] v) {
        this.v = v;
        this.count = v.length / FIELDS;
    }

    /** Uniform sizes; offsets per entry; leading dimensions equal to the stored row counts given transposes chosen at launch. */
    public static BatchDescriptor uniform(int m, int n, int k, int[] aOffsets, int lda, int[] bOffsets, int ldb, int[] cOffsets, int ldc) {
        int b = aOffsets.length;
        if (bOffsets.length != b || cOffsets.length != b) {
            throw new IllegalArgumentException("offset arrays differ in length: A " + b + ", B " + bOffsets.length + ", C " + cOffsets.length);
        }
        int[] ms = new int[b], ns = new int[b], ks = new int[b], la = new int[b], lb = new int[b], lc = new int[b];
        java.util.Arrays.fill(ms, m);
        java.util.Arrays.fill(ns, n);
        java.util.Arrays.fill(ks, k);
        java.util.Arrays.fill(la, lda);
        java.util.Arrays.fill(lb, ldb);
        java.util.Arrays.fill(lc, ldc);
        return variable(ms, ns, ks, aOffsets, la, bOffsets, lb, cOffsets, lc);
    }

    /**
     * {@code batch} uniform entries stored back to back with the given strides, each operand
     * packed ({@code lda = m}, {@code ldb = k}, {@code ldc = m}) for non-transposed operands.
     */
    public static BatchDescriptor strided(int batch, int m, int n, int k, int strideA, int strideB, int strideC) {
        return stridedWithLd(batch, m, n, k, strideA, m, strideB, k, strideC, m);
    }

    /** Like {@link #strided} with explicit leading dimensions (for transposed operands). */
    public static BatchDescriptor stridedWithLd(int batch, int m, int n, int k, int strideA, int lda, int strideB, int ldb, int strideC, int ldc) {
        if (batch < 0) throw new IllegalArgumentException("batch must be >= 0, got " + batch);
        int[] ao = new int[batch], bo = new int[batch], co = new int[batch];
        for (int e = 0; e < batch; e++) {
            ao[e] = Math.multiplyExact(e, strideA);
            bo[e] = Math.multiplyExact(e, strideB);
            co[e] = Math.multiplyExact(e, strideC);
        }
        return uniform(m, n, k, ao, lda, bo, ldb, co, ldc);
    }

    /** Per-entry sizes, offsets and leading dimensions; all arrays have one element per entry. */
    public static BatchDescriptor variable(int[] m, int[] n, int[] k, int[] aOff, int[] lda, int[] bOff, int[] ldb, int[] cOff, int[] ldc) {
        int b = m.length;
        int[][] all = {m, n, k, aOff, lda, bOff, ldb, cOff, ldc};
        String[] names = {"m", "n", "k", "aOffset", "lda", "bOffset", "ldb", "cOffset", "ldc"};
        for (int f = 0; f < FIELDS; f++) {
            if (all[f].length != b) throw new IllegalArgumentException(names[f] + " has " + all[f].length + " entries, m has " + b);
        }
        int[] v = new int[b * FIELDS];
        for (int e = 0; e < b; e++) {
            for (int f = 0; f < FIELDS; f++) {
                int x = all[f][e];
                if (x < 0 || (f == 4 || f == 6 || f == 8) && x < 1) {
                    throw new IllegalArgumentException("entry " + e + ": " + names[f] + " = " + x + " is out of range");
                }
                v[e * FIELDS + f] = x;
            }
        }
        return new BatchDescriptor(v);
    }

    public int count() {
        return count;
    }

    public int m(int e) {
        return v[e * FIELDS];
    }

    public int n(int e) {
        return v[e * FIELDS + 1];
    }

    public int k(int e) {
        return v[e * FIELDS + 2];
    }

    /** Field {@code f} (0..8: m n k aOff lda bOff ldb cOff ldc) of entry {@code e}. */
    int field(int e, int f) {
        return v[e * FIELDS + f];
    }

    public int maxM() {
        int r = 0;
        for (int e = 0; e < count; e++) r = Math.max(r, m(e));
        return r;
    }

    public int maxN() {
        int r = 0;
        for (int e = 0; e < count; e++) r = Math.max(r, n(e));
        return r;
    }

    public int maxK() {
        int r = 0;
        for (int e = 0; e < count; e++) r = Math.max(r, k(e));
        return r;
    }

    /** Multiply-adds summed over entries (for flop rates: 2 flops each). */
    public long multiplyAdds() {
        long s = 0;
        for (int e = 0; e < count; e++) s += (long) m(e) * n(e) * k(e);
        return s;
    }

    /** The descriptor as the kernels read it. */
    public IntArray toIntArray() {
        return IntArray.fromArray(v.length == 0 ? new int[FIELDS] : v.clone());
    }
}
