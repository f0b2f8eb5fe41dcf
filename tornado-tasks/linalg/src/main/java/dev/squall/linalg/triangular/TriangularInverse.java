package dev.squall.linalg.triangular;

import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Inverse of lower-triangular matrices, batched, as in Stan Math's OpenCL code: {@code diag_inv}
 * inverts the {@code tb x tb} diagonal blocks of every matrix in one launch; then each of
 * {@code log2(n / tb)} rounds joins pairs of inverted blocks {@code C1, C2} of size {@code s}
 * into one of size {@code 2s} by {@code C3 = -C2 A3 C1}, as two batched GEMMs over every pair of
 * every matrix ({@code inv_lower_tri_multiply}: {@code T = C2 A3};
 * {@code neg_rect_lower_tri_multiply}: {@code C3 = -T C1}). Orders that are not a power of two
 * times {@code tb} are handled by cutting the last blocks at {@code n} (equivalent to padding
 * with the identity).
 *
 * For orders up to 64, {@link #appendWarp} inverts each matrix in one launch, one warp per matrix
 * ({@link WarpLocalTriangularKernelsF64}: L in local memory, each lane its own rows of the inverse).
 *
 * <pre>{@code
 * KernelArray inv = TriangularInverse.invert(Devices.select(null), l, 64, 10_000);
 * }</pre>
 */
public final class TriangularInverse {
    /** Diagonal block size used unless one is given. */
    public static final int DEFAULT_BLOCK = 32;

    private TriangularInverse() {
    }

    /**
     * Returns the inverses of {@code batch} lower-triangular {@code n x n} matrices packed in
     * {@code l} (entries above the diagonal are ignored); {@code l} is not modified.
     *
     * @throws IllegalArgumentException on wrong sizes, a non-finite entry or a zero on a diagonal (naming it)
     */
    public static KernelArray invert(Device device, KernelArray l, int n, int batch) {
        InputChecks.squareBatch("L", l, n, batch);
        InputChecks.finiteLower("L", l, n, batch);
        InputChecks.nonZeroDiagonal("L", l, n, batch);
        Precision p = Precision.of(l);
        KernelArray w = p.allocate((long) n * n * batch);
        LaunchSequence seq = new LaunchSequence("trinv");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, l);
        if (n <= WarpLocalTriangularKernelsF64.MAX_N) {
            appendWarp(seq, l, 0, n, n * n, w, n, batch);
        } else {
            append(seq, l, 0, n, n * n, w, p.allocate(tempLength(n, batch)), n, batch, DEFAULT_BLOCK);
        }
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, w);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return w;
    }

    /**
     * Appends the one launch that writes into {@code w} (packed, {@code n x n} per matrix) the
     * inverses of the lower triangles of {@code batch} matrices of order {@code n <= 64} of
     * {@code src} (layout as in {@link #append}), one 32-work-item group per matrix: L staged in
     * local memory, each work-item back-substitutes its own two rows of the inverse
     * ({@link WarpLocalTriangularKernelsF64#trinvWarpLocal}).
     */
    public static void appendWarp(LaunchSequence seq, KernelArray src, int srcOff, int lds, int srcStride, KernelArray w, int n, int batch) {
        checkWarpOrder(n);
        seq.graph().task(seq.taskName("trinv_warp_local"),
                WorkerGrid.of((long) batch * WarpLocalTriangularKernelsF64.THREADS).withLocal(WarpLocalTriangularKernelsF64.THREADS),
                WarpLocalTriangularKernels.trinvWarpLocal.at(Precision.of(w)), new KernelContext(), src, srcOff, lds, srcStride, w, n, batch);
    }

    private static void checkWarpOrder(int n) {
        if (n < 1 || n > WarpLocalTriangularKernelsF64.MAX_N) {
            throw new IllegalArgumentException("the warp kernel inverts orders 1.." + WarpLocalTriangularKernelsF64.MAX_N + ", got " + n);
        }
    }

    /** Size of the scratch array {@link #append} needs. */
    public static long tempLength(int n, int batch) {
        return Math.max(1, (long) n * n * batch / 2);
    }

    /**
     * Appends the launches that write into {@code w} (packed, {@code n x n} per matrix, stride
     * {@code n * n}) the inverses of the lower triangles of {@code batch} matrices of {@code src}
     * (matrix {@code e} at {@code srcOff + e * srcStride}, leading dimension {@code lds}).
     * {@code temp} needs {@link #tempLength} elements; {@code src} and {@code w} may not overlap.
     */
    public static void append(LaunchSequence seq, KernelArray src, int srcOff, int lds, int srcStride,
                              KernelArray w, KernelArray temp, int n, int batch, int tb) {
        if (tb < 1 || tb > TriangularKernelsF64.MAX_BLOCK) {
            throw new IllegalArgumentException("diagonal block size must be 1.." + TriangularKernelsF64.MAX_BLOCK + ", got " + tb);
        }
        if (temp.getSizeLong() < tempLength(n, batch)) throw new IllegalArgumentException("temp needs " + tempLength(n, batch) + " elements");
        Precision p = Precision.of(w);
        CopyLaunches.lower(seq, src, srcOff, lds, srcStride, w, 0, n, n * n, n, batch);
        int blocks = (n + tb - 1) / tb;
        seq.graph().task(seq.taskName("diag_inv"), WorkerGrid.of((long) batch * blocks * TriangularKernelsF64.MAX_BLOCK).withLocal(TriangularKernelsF64.MAX_BLOCK),
                TriangularKernels.diagInv.at(p), new KernelContext(), w, 0, n, n * n, n, tb, blocks);
        for (int s = tb; s < n; s *= 2) {
            int pairs = 0;
            for (int off = 0; off + s < n; off += 2 * s) pairs++;
            int count = pairs * batch;
            int[] m = new int[count], nn = new int[count], k1 = new int[count], k2 = new int[count];
            int[] c2 = new int[count], a3 = new int[count], c1 = new int[count], t = new int[count], ldw = new int[count], ldt = new int[count];
            int q = 0, tOff = 0;
            for (int e = 0; e < batch; e++) {
                for (int off = 0; off + s < n; off += 2 * s) {
                    int s2 = Math.min(s, n - off - s);
                    int base = e * n * n;
                    m[q] = s2;
                    nn[q] = s;
                    k1[q] = s2;
                    k2[q] = s;
                    c2[q] = base + (off + s) + (off + s) * n;
                    a3[q] = base + (off + s) + off * n;
                    c1[q] = base + off + off * n;
                    t[q] = tOff;
                    ldw[q] = n;
                    ldt[q] = s2;
                    tOff += s2 * s;
                    q++;
                }
            }
            // inv_lower_tri_multiply: T = C2 * A3
            BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, w, w, 0, temp,
                    BatchDescriptor.variable(m, nn, k1, c2, ldw, a3, ldw, t, ldt), false);
            // neg_rect_lower_tri_multiply: A3 = -T * C1
            BatchedGemm.append(seq, Transpose.N, Transpose.N, -1, temp, w, 0, w,
                    BatchDescriptor.variable(m, nn, k2, t, ldt, c1, ldw, a3, ldw), false);
        }
    }
}
