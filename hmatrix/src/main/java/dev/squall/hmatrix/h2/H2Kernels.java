package dev.squall.hmatrix.h2;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.Parallel;

/**
 * The batched kernels of H2 construction and of the matrix-vector product. Trees are complete binary trees numbered
 * in BFS order (node {@code t} has children {@code 2t+1, 2t+2}, parent {@code (t-1)/2}, level {@code l} is the
 * contiguous range {@code [2^l - 1, 2^(l+1) - 1)}), so each per-node quantity is one array indexed by node and a
 * per-level launch covers a contiguous range of it. The rank {@code k = p^dim} is the same for every node.
 *
 * <p>Layouts (all row-major unless said otherwise):
 * <ul>
 * <li>boxes: 6 values per node, {@code lo0 hi0 lo1 hi1 lo2 hi2} (the interpolation box);</li>
 * <li>leaf basis {@code U}: {@code n x k}, row {@code a} is the point at tree position {@code a};</li>
 * <li>transfer {@code E_c}: {@code k x k} at offset {@code c k^2}, entry {@code [i, j]} (child index {@code i},
 *     parent index {@code j}) is the parent's {@code j}-th Lagrange polynomial at the child's {@code i}-th node;</li>
 * <li>coupling block {@code b}: {@code k x k} at {@code b k^2}, column-major: entry {@code [mu k + nu]} is
 *     {@code K(xi_nu^t, xi_mu^s)}, so that consecutive work-items (consecutive {@code nu}) read consecutive values;</li>
 * <li>dense block {@code b} of leaves {@code (i, j)}: {@code m_i x m_j} at {@code off[b]}, column-major;</li>
 * <li>vectors: {@code n x nv} (point-major), node vectors {@code xhat}, {@code yhat}: {@code node x k x nv}.</li>
 * </ul>
 */
public final class H2Kernels {
    private H2Kernels() {
    }

    // ---- interpolation ----

    /** Chebyshev node {@code j} of {@code p} on {@code [lo, hi]}: {@code c + h cos((2j + 1) pi / (2p))}. */
    @DeviceFunction
    public static double chebyshevNode(double lo, double hi, int j, int p) {
        return 0.5 * (lo + hi) + 0.5 * (hi - lo) * Math.cos((2 * j + 1) * Math.PI / (2 * p));
    }

    /** The {@code j}-th Lagrange polynomial of the {@code p} Chebyshev nodes of {@code [lo, hi]}, at {@code x}. */
    @DeviceFunction
    public static double lagrange(double lo, double hi, int j, int p, double x) {
        double t = (x - 0.5 * (lo + hi)) / (0.5 * (hi - lo));
        double xj = Math.cos((2 * j + 1) * Math.PI / (2 * p));
        double v = 1.0;
        for (int i = 0; i < p; i++) {
            if (i != j) {
                double xi = Math.cos((2 * i + 1) * Math.PI / (2 * p));
                v = v * (t - xi) / (xj - xi);
            }
        }
        return v;
    }

    // ---- construction ----

    /**
     * Leaf bases: {@code u[a k + nu] = L_nu(x_a)} on the box of the leaf of point {@code a}, for
     * {@code a k + nu < total} ({@code total = n k}); {@code pointLeaf[a]} is that leaf's number, its node number
     * is {@code firstLeaf + pointLeaf[a]}.
     */
    @Kernel
    public static void leafBasis(DoubleArray pts, IntArray pointLeaf, DoubleArray boxes, DoubleArray u, int firstLeaf,
            long total, int dim, int p, int k) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / k;
            int rest = (int) (i % k);
            int node = firstLeaf + pointLeaf.get(a);
            double v = 1.0;
            for (int d = 0; d < dim; d++) {
                int j = rest % p;
                rest = rest / p;
                v = v * lagrange(boxes.get(node * 6 + 2 * d), boxes.get(node * 6 + 2 * d + 1), j, p, pts.get(a * dim + d));
            }
            u.set(i, v);
        }
    }

    /**
     * Transfers of nodes {@code 1 ..}: {@code e[c k^2 + i k + j] = L_j^parent(xi_i^c)} for the {@code total =
     * (nodes - 1) k^2} entries after node 0's slot.
     */
    @Kernel
    public static void transfers(DoubleArray boxes, DoubleArray e, long total, int dim, int p, int k) {
        for (@Parallel long q = 0; q < total; q++) {
            long kk = (long) k * k;
            long c = 1 + q / kk;
            int r = (int) (q % kk);
            int ci = r / k;
            int pj = r % k;
            long par = (c - 1) / 2;
            double v = 1.0;
            for (int d = 0; d < dim; d++) {
                int a = ci % p;
                int b = pj % p;
                ci = ci / p;
                pj = pj / p;
                double x = chebyshevNode(boxes.get(c * 6 + 2 * d), boxes.get(c * 6 + 2 * d + 1), a, p);
                v = v * lagrange(boxes.get(par * 6 + 2 * d), boxes.get(par * 6 + 2 * d + 1), b, p, x);
            }
            e.set(kk + q, v);
        }
    }

    /**
     * Distances between the interpolation nodes of each coupling pair {@code (blockRow[b], blockCol[b])}:
     * {@code s[b k^2 + mu k + nu] = |xi_nu^t - xi_mu^s|}; a covariance map turns them into kernel values.
     */
    @Kernel
    public static void couplingDistances(IntArray blockRow, IntArray blockCol, DoubleArray rowBoxes, DoubleArray colBoxes,
            DoubleArray s, long total, int dim, int p, int k) {
        for (@Parallel long q = 0; q < total; q++) {
            long kk = (long) k * k;
            long b = q / kk;
            int r = (int) (q % kk);
            int mu = r / k;
            int nu = r % k;
            long t = blockRow.get(b);
            long sc = blockCol.get(b);
            double d2 = 0.0;
            for (int d = 0; d < dim; d++) {
                double x = chebyshevNode(rowBoxes.get(t * 6 + 2 * d), rowBoxes.get(t * 6 + 2 * d + 1), nu % p, p);
                double y = chebyshevNode(colBoxes.get(sc * 6 + 2 * d), colBoxes.get(sc * 6 + 2 * d + 1), mu % p, p);
                nu = nu / p;
                mu = mu / p;
                d2 += (x - y) * (x - y);
            }
            s.set(q, Math.sqrt(d2));
        }
    }

    /**
     * Distances of the dense blocks: block {@code b} couples row leaf {@code denseRow[b]} and column leaf
     * {@code denseCol[b]} (leaf numbers); entry {@code (r, c)} goes to {@code off[b] + c m_i + r}.
     */
    @Kernel
    public static void denseDistances(IntArray denseRow, IntArray denseCol, LongArray off, IntArray rowLeafStart,
            IntArray colLeafStart, DoubleArray rowPts, DoubleArray colPts, DoubleArray dvals, int blocks, int mm, int m,
            int dim) {
        for (@Parallel int b = 0; b < blocks; b++) {
            for (@Parallel int e = 0; e < mm; e++) {
                int ti = denseRow.get(b);
                int tj = denseCol.get(b);
                int r0 = rowLeafStart.get(ti);
                int mi = rowLeafStart.get(ti + 1) - r0;
                int c0 = colLeafStart.get(tj);
                int mj = colLeafStart.get(tj + 1) - c0;
                int r = e % m;
                int c = e / m;
                if (r < mi && c < mj) {
                    double d2 = 0.0;
                    for (int d = 0; d < dim; d++) {
                        double t = rowPts.get((long) (r0 + r) * dim + d) - colPts.get((long) (c0 + c) * dim + d);
                        d2 += t * t;
                    }
                    dvals.set(off.get(b) + (long) c * mi + r, Math.sqrt(d2));
                }
            }
        }
    }

    // ---- matrix-vector product ----

    /** {@code xt[a nv + v] = x[perm[a] nv + v]}: user order to tree order. */
    @Kernel
    public static void gather(DoubleArray x, IntArray perm, DoubleArray xt, long total, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / nv;
            xt.set(i, x.get((long) perm.get(a) * nv + i % nv));
        }
    }

    /** {@code y[perm[a] nv + v] = yt[a nv + v]}: tree order to user order. */
    @Kernel
    public static void scatter(DoubleArray yt, IntArray perm, DoubleArray y, long total, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / nv;
            y.set((long) perm.get(a) * nv + i % nv, yt.get(i));
        }
    }

    /**
     * Leaf upsweep: {@code xhat_leaf = U_leaf^T x(leaf)} for the {@code leaves} leaves, whose node numbers start at
     * {@code firstLeaf}.
     */
    @Kernel
    public static void leafUpsweep(DoubleArray u, DoubleArray x, IntArray leafStart, DoubleArray xhat, int firstLeaf,
            long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            int leaf = (int) (i / knv);
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            int a0 = leafStart.get(leaf);
            int a1 = leafStart.get(leaf + 1);
            double acc = 0.0;
            for (int a = a0; a < a1; a++) {
                acc += u.get((long) a * k + nu) * x.get((long) a * nv + v);
            }
            xhat.set((firstLeaf + leaf) * knv + r, acc);
        }
    }

    /**
     * Transfer upsweep into the parents {@code firstParent ..} of one level: {@code xhat_t = sum over children c of
     * E_c^T xhat_c}. Each parent sums both children, so there are no write races.
     */
    @Kernel
    public static void transferUpsweep(DoubleArray e, DoubleArray xhat, int firstParent, long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            long kk = (long) k * k;
            long t = firstParent + i / knv;
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            double acc = 0.0;
            for (long c = 2 * t + 1; c <= 2 * t + 2; c++) {
                for (int j = 0; j < k; j++) {
                    acc += e.get(c * kk + (long) j * k + nu) * xhat.get(c * knv + (long) j * nv + v);
                }
            }
            xhat.set(t * knv + r, acc);
        }
    }

    /**
     * Coupling multiply of one level of the row tree: {@code yhat_t = sum over blocks b of row t of S_b xhat_col(b)}
     * for the rows {@code firstRow ..}; block-sparse rows as in BSR ({@code rowPtr}, {@code colIdx}).
     */
    @Kernel
    public static void coupling(IntArray rowPtr, IntArray colIdx, DoubleArray s, DoubleArray xhat, DoubleArray yhat,
            int firstRow, long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            long kk = (long) k * k;
            int t = firstRow + (int) (i / knv);
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            double acc = 0.0;
            int b1 = rowPtr.get(t + 1);
            for (int b = rowPtr.get(t); b < b1; b++) {
                long c = colIdx.get(b);
                long sb = b * kk + nu;
                long xb = c * knv + v;
                for (int mu = 0; mu < k; mu++) {
                    acc += s.get(sb + (long) mu * k) * xhat.get(xb + (long) mu * nv);
                }
            }
            yhat.set(t * knv + r, acc);
        }
    }

    /** Transfer downsweep into the children {@code firstChild ..} of one level: {@code yhat_c += E_c yhat_parent}. */
    @Kernel
    public static void transferDownsweep(DoubleArray e, DoubleArray yhat, int firstChild, long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            long kk = (long) k * k;
            long c = firstChild + i / knv;
            int r = (int) (i % knv);
            int ci = r / nv;
            int v = r % nv;
            long par = (c - 1) / 2;
            double acc = 0.0;
            for (int j = 0; j < k; j++) {
                acc += e.get(c * kk + (long) ci * k + j) * yhat.get(par * knv + (long) j * nv + v);
            }
            yhat.set(c * knv + r, yhat.get(c * knv + r) + acc);
        }
    }

    /** Leaf downsweep: {@code y(a) += U_a yhat_leaf(a)} for every point {@code a} (tree order). */
    @Kernel
    public static void leafDownsweep(DoubleArray u, DoubleArray yhat, IntArray pointLeaf, DoubleArray y, int firstLeaf,
            long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            long a = i / nv;
            int v = (int) (i % nv);
            long node = firstLeaf + pointLeaf.get(a);
            double acc = 0.0;
            for (int nu = 0; nu < k; nu++) {
                acc += u.get(a * k + nu) * yhat.get(node * knv + (long) nu * nv + v);
            }
            y.set(i, y.get(i) + acc);
        }
    }

    /**
     * Dense part: {@code y(a) = sum over dense blocks of a's leaf row of D_b x(col leaf)} for every point {@code a}
     * (tree order); it writes {@code y}, so it runs before the leaf downsweep adds to it.
     */
    @Kernel
    public static void dense(IntArray denseRowPtr, IntArray denseCol, LongArray off, IntArray pointLeaf,
            IntArray rowLeafStart, IntArray colLeafStart, DoubleArray dvals, DoubleArray x, DoubleArray y, long total,
            int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / nv;
            int v = (int) (i % nv);
            int leaf = pointLeaf.get(a);
            int r0 = rowLeafStart.get(leaf);
            int mi = rowLeafStart.get(leaf + 1) - r0;
            long r = a - r0;
            double acc = 0.0;
            int b1 = denseRowPtr.get(leaf + 1);
            for (int b = denseRowPtr.get(leaf); b < b1; b++) {
                int j = denseCol.get(b);
                int c0 = colLeafStart.get(j);
                int mj = colLeafStart.get(j + 1) - c0;
                long o = off.get(b) + r;
                for (int c = 0; c < mj; c++) {
                    acc += dvals.get(o + (long) c * mi) * x.get((long) (c0 + c) * nv + v);
                }
            }
            y.set(i, acc);
        }
    }

    /** {@code b[i] = a[i]}: the copy kernel whose bandwidth the matrix-vector product is compared with. */
    @Kernel
    public static void copy(DoubleArray a, DoubleArray b, long n) {
        for (@Parallel long i = 0; i < n; i++) {
            b.set(i, a.get(i));
        }
    }
}
