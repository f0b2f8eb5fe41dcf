package dev.squall.linalg.reference;

/**
 * Plain-Java GEMM and GEMV on column-major arrays with offsets and leading dimensions: the
 * reference the batched kernels are checked against.
 *
 * <pre>{@code
 * ReferenceGemm.gemm(false, true, m, n, k, 1.0, a, 0, m, b, 0, n, 0.0, c, 0, m);
 * }</pre>
 */
public final class ReferenceGemm {
    private ReferenceGemm() {
    }

    /** {@code C = alpha op(A) op(B) + beta C}, {@code op(A)} is {@code m x k}; {@code C} not read when beta is 0. */
    public static void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha,
                            double[] a, int aOff, int lda, double[] b, int bOff, int ldb, double beta, double[] c, int cOff, int ldc) {
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int p = 0; p < k; p++) {
                    double x = transA ? a[aOff + p + i * lda] : a[aOff + i + p * lda];
                    double y = transB ? b[bOff + j + p * ldb] : b[bOff + p + j * ldb];
                    s += x * y;
                }
                int idx = cOff + i + j * ldc;
                c[idx] = beta == 0 ? alpha * s : alpha * s + beta * c[idx];
            }
        }
    }

    /** {@code y = alpha op(A) x + beta y} with {@code A} stored {@code rows x cols}. */
    public static void gemv(boolean trans, int rows, int cols, double alpha, double[] a, int aOff, int lda,
                            double[] x, int xOff, double beta, double[] y, int yOff) {
        int out = trans ? cols : rows, in = trans ? rows : cols;
        for (int i = 0; i < out; i++) {
            double s = 0;
            for (int j = 0; j < in; j++) s += (trans ? a[aOff + j + i * lda] : a[aOff + i + j * lda]) * x[xOff + j];
            y[yOff + i] = beta == 0 ? alpha * s : alpha * s + beta * y[yOff + i];
        }
    }
}
