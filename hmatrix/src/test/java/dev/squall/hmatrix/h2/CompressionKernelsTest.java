package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CompressionKernelsTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Column-major m x n matrices of one kind: 0 Gaussian, 1 graded columns (1 to 1e-12), 2 rank 3 with a zero column, 3 signs of a few magnitudes. */
    private static double[] matrix(int kind, int m, int n, SplittableRandom rnd) {
        double[] a = new double[m * n];
        if (kind == 2) {
            double[][] b = new double[3][m], c = new double[3][n];
            for (double[] r : b) for (int i = 0; i < m; i++) r[i] = rnd.nextGaussian();
            for (double[] r : c) for (int j = 0; j < n; j++) r[j] = rnd.nextGaussian();
            for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) for (int t = 0; t < 3; t++) a[j * m + i] += b[t][i] * c[t][j];
            for (int i = 0; i < m; i++) a[(n / 2) * m + i] = 0;
            return a;
        }
        for (int j = 0; j < n; j++) {
            double scale = kind == 1 ? Math.pow(10, -12.0 * j / Math.max(1, n - 1)) : 1;
            for (int i = 0; i < m; i++) {
                double v = kind == 3 ? (rnd.nextBoolean() ? -1 : 1) * Math.pow(1e3, rnd.nextInt(3) - 1) : rnd.nextGaussian();
                a[j * m + i] = scale * v;
            }
        }
        return a;
    }

    /** Runs jacobiSvd on {@code batch} matrices; returns {u, s} (and checks the sweep counts). */
    private static double[][] decompose(Device device, double[] a, int m, int n, int batch, boolean gram) {
        DoubleArray da = DoubleArray.fromArray(a), u = new DoubleArray((long) batch * m * n), s = new DoubleArray((long) batch * n);
        IntArray sweeps = new IntArray(batch);
        TaskGraph g = new TaskGraph("jacobi").transferToDevice(DataTransferMode.EVERY_EXECUTION, da)
                .task("svd", WorkerGrid.of((long) batch * CompressionKernels.JACOBI_THREADS).withLocal(CompressionKernels.JACOBI_THREADS),
                        CompressionKernels::jacobiSvd, new KernelContext(), da, m, n, gram ? 1 : 0, u, s, sweeps, m * 2 * 0x1p-52, 30)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, u, s, sweeps);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(device).execute();
        }
        for (int e = 0; e < batch; e++) assertTrue(sweeps.get(e) >= 1 && sweeps.get(e) <= 30, "matrix " + e + ": " + sweeps.get(e) + " sweeps");
        return new double[][] {u.toHeapArray(), s.toHeapArray()};
    }

    /**
     * SVDs of matrices of 1 to 128 rows and 1 to 64 columns (odd, even, square, tall), Gaussian, graded, rank
     * deficient with a zero column, mixed signs and magnitudes, checked without a reference SVD: the columns of U with
     * a nonzero singular value are orthonormal and span the range of A ({@code U U^T A = A}), the rows of {@code U^T A}
     * are orthogonal with norms sigma (so {@code U^T A = diag(sigma) V^T}), sigma descending, zero columns of U for
     * zero singular values.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singularValueDecompositions(Device device) {
        int[][] shapes = {{128, 64}, {127, 63}, {64, 64}, {100, 37}, {9, 9}, {70, 1}, {1, 1}, {33, 32}};
        SplittableRandom rnd = new SplittableRandom(7);
        for (int[] sh : shapes) {
            int m = sh[0], n = sh[1], batch = 4;
            double[] a = new double[batch * m * n];
            for (int e = 0; e < batch; e++) System.arraycopy(matrix(e, m, n, rnd), 0, a, e * m * n, m * n);
            double[][] r = decompose(device, a, m, n, batch, false);
            for (int e = 0; e < batch; e++) {
                String what = m + " x " + n + " kind " + e + " on " + device.id();
                double[] ae = java.util.Arrays.copyOfRange(a, e * m * n, (e + 1) * m * n);
                double[] ue = java.util.Arrays.copyOfRange(r[0], e * m * n, (e + 1) * m * n);
                double[] se = java.util.Arrays.copyOfRange(r[1], e * n, (e + 1) * n);
                double norm = 0;
                for (double v : ae) norm += v * v;
                norm = Math.sqrt(norm);
                int rank = 0;
                for (int j = 0; j < n; j++) {
                    if (j > 0) assertTrue(se[j] <= se[j - 1], what + ": sigma not descending at " + j);
                    if (se[j] > 1e-13 * se[0]) rank++;
                }
                if (e == 2) assertEquals(Math.min(3, Math.min(m, n - 1)), rank, what); // rank 3, one column zeroed
                // U^T U = I on the kept columns
                for (int i = 0; i < rank; i++) {
                    for (int j = i; j < rank; j++) {
                        double d = 0;
                        for (int x = 0; x < m; x++) d += ue[i * m + x] * ue[j * m + x];
                        assertEquals(i == j ? 1 : 0, d, 1e-12, what + ": U^T U at " + i + "," + j);
                    }
                }
                // B = U^T A (rank x n): orthogonal rows of norms sigma; U B = A
                double[][] b = new double[rank][n];
                for (int i = 0; i < rank; i++) for (int j = 0; j < n; j++) for (int x = 0; x < m; x++) b[i][j] += ue[i * m + x] * ae[j * m + x];
                for (int i = 0; i < rank; i++) {
                    for (int j = i; j < rank; j++) {
                        double d = 0;
                        for (int c = 0; c < n; c++) d += b[i][c] * b[j][c];
                        assertEquals(i == j ? se[i] * se[i] : 0, d, 1e-12 * se[0] * se[0], what + ": rows of U^T A at " + i + "," + j);
                    }
                }
                double res = 0;
                for (int j = 0; j < n; j++) {
                    for (int x = 0; x < m; x++) {
                        double v = ae[j * m + x];
                        for (int i = 0; i < rank; i++) v -= ue[i * m + x] * b[i][j];
                        res += v * v;
                    }
                }
                assertTrue(Math.sqrt(res) <= 1e-12 * norm + 1e-300, what + ": |A - U U^T A| = " + Math.sqrt(res));
                for (int j = 0; j < n; j++) {
                    if (se[j] == 0) for (int x = 0; x < m; x++) assertEquals(0.0, ue[j * m + x], what);
                }
            }
        }
    }

    /**
     * Eigen-decompositions of Gram matrices {@code G = B^T B} (pivoted Cholesky, then Jacobi): full rank, graded
     * (eigenvalues down to 1e-24, below rounding), rank 3 of 40 with a zero column, 1 x 1; eigenvalues descending,
     * summing to the trace, {@code G u = lambda u} to rounding of the largest, orthonormal eigenvectors for the
     * eigenvalues above 1e-12 of the largest.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void gramEigenDecompositions(Device device) {
        int[] sizes = {64, 40, 17, 1};
        SplittableRandom rnd = new SplittableRandom(11);
        for (int n : sizes) {
            int batch = 4;
            double[] g = new double[batch * n * n];
            for (int e = 0; e < batch; e++) {
                int rows = e == 2 ? 3 : n + 5;
                double[] bm = matrix(e == 2 ? 0 : e, rows, n, rnd); // kinds 0, 1 (graded columns), Gaussian rank 3, signs
                for (int j = 0; j < n; j++) {
                    for (int i = 0; i < n; i++) {
                        double d = 0;
                        for (int x = 0; x < rows; x++) d += bm[i * rows + x] * bm[j * rows + x];
                        g[e * n * n + j * n + i] = e == 2 && (i == n / 2 || j == n / 2) && n > 1 ? 0 : d;
                    }
                }
            }
            double[][] r = decompose(device, g.clone(), n, n, batch, true);
            for (int e = 0; e < batch; e++) {
                String what = "Gram " + n + " kind " + e + " on " + device.id();
                int o = e * n * n;
                double[] lam = java.util.Arrays.copyOfRange(r[1], e * n, (e + 1) * n);
                double trace = 0;
                for (int i = 0; i < n; i++) trace += g[o + i * n + i];
                double sum = 0;
                for (int j = 0; j < n; j++) {
                    sum += lam[j];
                    assertTrue(lam[j] >= 0 && (j == 0 || lam[j] <= lam[j - 1]), what + ": eigenvalue " + j + " = " + lam[j]);
                }
                assertEquals(trace, sum, 1e-12 * trace, what + ": eigenvalues sum to the trace");
                int kept = 0;
                for (int j = 0; j < n; j++) if (lam[j] > 1e-12 * lam[0]) kept++;
                if (e == 2) assertEquals(Math.min(3, n), kept, what);
                for (int j = 0; j < kept; j++) {
                    for (int i = 0; i < n; i++) {
                        double gu = 0;
                        for (int c = 0; c < n; c++) gu += g[o + c * n + i] * r[0][o + j * n + c];
                        assertEquals(lam[j] * r[0][o + j * n + i], gu, 1e-12 * lam[0], what + ": G u = lambda u, vector " + j + " row " + i);
                    }
                    for (int i = 0; i <= j; i++) {
                        double d = 0;
                        for (int c = 0; c < n; c++) d += r[0][o + i * n + c] * r[0][o + j * n + c];
                        assertEquals(i == j ? 1 : 0, d, 1e-10, what + ": u^T u at " + i + "," + j);
                    }
                }
            }
        }
    }
}
