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
 * per-level launch covers a contiguous range of it. As built, every node has rank {@code k = p^dim}; after compression
 * ranks differ between levels but are equal within one, so each per-level launch has one rank.
 *
 * <p>Layouts (all row-major unless said otherwise):
 * <ul>
 * <li>boxes: 6 values per node, {@code lo0 hi0 lo1 hi1 lo2 hi2} (the interpolation box);</li>
 * <li>leaf basis {@code U}: {@code n x k}, row {@code a} is the point at tree position {@code a};</li>
 * <li>transfer {@code E_c}: {@code k_c x k_parent} at offset {@code eOff[c]} ({@code (c - 1) k^2} as built), entry
 *     {@code [i, j]} (child index {@code i}, parent index {@code j}) is, as built, the parent's {@code j}-th Lagrange
 *     polynomial at the child's {@code i}-th node;</li>
 * <li>coupling block {@code b}: {@code k_t x k_s} at {@code sOff[b]} ({@code b k^2} as built), column-major: entry
 *     {@code [mu k_t + nu]} is {@code K(xi_nu^t, xi_mu^s)}, so that consecutive work-items (consecutive {@code nu})
 *     read consecutive values;</li>
 * <li>dense block {@code b} of leaves {@code (i, j)}: {@code m_i x m_j} at {@code off[b]}, column-major;</li>
 * <li>vectors: {@code n x nv} (point-major); node vectors {@code xhat}, {@code yhat}: node {@code t}'s {@code k_t x nv}
 *     values start at {@code rankStart[t] nv}.</li>
 * </ul>
 */
public final class H2Kernels {
    private H2Kernels() {
    }

    /**
     * {@code acc} plus {@code a[aStart + j aStride] b[bStart + j bStride]} for {@code j = 0 .. n-1}, added in that
     * order: the strided inner product every product kernel below accumulates.
     */
    @DeviceFunction
    static double addProducts(double acc, DoubleArray a, long aStart, long aStride, DoubleArray b, long bStart,
            long bStride, int n) {
        double s = acc;
        for (int j = 0; j < n; j++) {
            s += a.get(aStart + j * aStride) * b.get(bStart + j * bStride);
        }
        return s;
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
     * Transfers of nodes {@code 1 ..} (the root has none): {@code e[(c - 1) k^2 + i k + j] = L_j^parent(xi_i^c)} for
     * the {@code total = (nodes - 1) k^2} entries.
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
            e.set(q, v);
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
     * Leaf upsweep: {@code xhat_leaf = U_leaf^T x(leaf)} for the {@code leaves} leaves of rank {@code k}, whose node
     * numbers start at {@code firstLeaf}; node {@code t}'s vector starts at {@code rankStart[t] nv}.
     */
    @Kernel
    public static void leafUpsweep(DoubleArray u, DoubleArray x, IntArray leafStart, DoubleArray xhat, IntArray rankStart,
            int firstLeaf, long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) k * nv;
            int leaf = (int) (i / knv);
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            int a0 = leafStart.get(leaf);
            int a1 = leafStart.get(leaf + 1);
            double acc = addProducts(0.0, u, (long) a0 * k + nu, k, x, (long) a0 * nv + v, nv, a1 - a0);
            xhat.set((long) rankStart.get(firstLeaf + leaf) * nv + r, acc);
        }
    }

    /**
     * Transfer upsweep into the parents {@code firstParent ..} of one level, of rank {@code kp}: {@code xhat_t = sum
     * over children c of E_c^T xhat_c}, where {@code E_c} ({@code k_c x kp}, row-major) starts at {@code eOff[c]}.
     * Each parent sums both children, so there are no write races.
     */
    @Kernel
    public static void transferUpsweep(DoubleArray e, LongArray eOff, DoubleArray xhat, IntArray rankStart, int firstParent,
            long total, int kp, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) kp * nv;
            int t = firstParent + (int) (i / knv);
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            double acc = 0.0;
            for (int c = 2 * t + 1; c <= 2 * t + 2; c++) {
                int c0 = rankStart.get(c);
                int kc = rankStart.get(c + 1) - c0;
                acc = addProducts(acc, e, eOff.get(c) + nu, kp, xhat, (long) c0 * nv + v, nv, kc);
            }
            xhat.set((long) rankStart.get(t) * nv + r, acc);
        }
    }

    /**
     * Coupling multiply of one level of the row tree, of rank {@code kt}: {@code yhat_t = sum over blocks b of row t of
     * S_b xhat_col(b)} for the rows {@code firstRow ..}; block-sparse rows as in BSR ({@code rowPtr}, {@code colIdx}),
     * block {@code b} ({@code kt x k_s}, column-major) at {@code sOff[b]}.
     */
    @Kernel
    public static void coupling(IntArray rowPtr, IntArray colIdx, DoubleArray s, LongArray sOff, DoubleArray xhat,
            IntArray colRankStart, DoubleArray yhat, IntArray rowRankStart, int firstRow, long total, int kt, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) kt * nv;
            int t = firstRow + (int) (i / knv);
            int r = (int) (i % knv);
            int nu = r / nv;
            int v = r % nv;
            double acc = 0.0;
            int b1 = rowPtr.get(t + 1);
            for (int b = rowPtr.get(t); b < b1; b++) {
                int c = colIdx.get(b);
                int c0 = colRankStart.get(c);
                int ks = colRankStart.get(c + 1) - c0;
                acc = addProducts(acc, s, sOff.get(b) + nu, kt, xhat, (long) c0 * nv + v, nv, ks);
            }
            yhat.set((long) rowRankStart.get(t) * nv + r, acc);
        }
    }

    /**
     * Transfer downsweep into the children {@code firstChild ..} of one level, of rank {@code kc}:
     * {@code yhat_c += E_c yhat_parent}.
     */
    @Kernel
    public static void transferDownsweep(DoubleArray e, LongArray eOff, DoubleArray yhat, IntArray rankStart, int firstChild,
            long total, int kc, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long knv = (long) kc * nv;
            int c = firstChild + (int) (i / knv);
            int r = (int) (i % knv);
            int ci = r / nv;
            int v = r % nv;
            int par = (c - 1) / 2;
            int p0 = rankStart.get(par);
            int kp = rankStart.get(par + 1) - p0;
            double acc = addProducts(0.0, e, eOff.get(c) + (long) ci * kp, 1, yhat, (long) p0 * nv + v, nv, kp);
            long o = (long) rankStart.get(c) * nv + r;
            yhat.set(o, yhat.get(o) + acc);
        }
    }

    /** Leaf downsweep: {@code y(a) += U_a yhat_leaf(a)} for every point {@code a} (tree order), leaves of rank {@code k}. */
    @Kernel
    public static void leafDownsweep(DoubleArray u, DoubleArray yhat, IntArray rankStart, IntArray pointLeaf, DoubleArray y,
            int firstLeaf, long total, int k, int nv) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / nv;
            int v = (int) (i % nv);
            long yb = (long) rankStart.get(firstLeaf + pointLeaf.get(a)) * nv + v;
            double acc = addProducts(0.0, u, a * k, 1, yhat, yb, nv, k);
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
                acc = addProducts(acc, dvals, off.get(b) + r, mi, x, (long) c0 * nv + v, nv, mj);
            }
            y.set(i, acc);
        }
    }

    /** {@code out[b] = sum of squares of block b's values} ({@code v[off[b]] .. v[off[b + 1] - 1]}). */
    @Kernel
    public static void blockSquares(DoubleArray v, LongArray off, DoubleArray out, int blocks) {
        for (@Parallel int b = 0; b < blocks; b++) {
            long o0 = off.get(b);
            int len = (int) (off.get(b + 1) - o0);
            out.set(b, addProducts(0.0, v, o0, 1, v, o0, 1, len));
        }
    }

    /** {@code a[i] = 0} for {@code i < n}: clears the outputs that the multi-vector GEMMs accumulate into. */
    @Kernel
    public static void zero(DoubleArray a, long n) {
        for (@Parallel long i = 0; i < n; i++) {
            a.set(i, 0.0);
        }
    }

    /**
     * One side of a batched projection of coupling blocks, with 64-bit offsets (for arrays beyond the int offsets of
     * the linalg GEMM): for every block {@code b} and entry {@code (i, j)} of its {@code m_b x n_b} result
     * (column-major at {@code outOff[b]}), {@code out = sum_p f[i, p] s[p, j]} with {@code f} the left factor of
     * the block's row node ({@code m_b x k_b}, row-major at {@code fOff[row[b]]}) and {@code s} the block
     * ({@code k_b x n_b}, column-major at {@code sOff[b]}). Sizes per block: {@code dims[3b..3b+2] = m, n, k}.
     * The right side {@code W R_s^T} is the same product on transposes, which {@code transposeOut} selects: the
     * result is then written as {@code n_b x m_b} column-major (its transpose).
     */
    @Kernel
    public static void projectBlocks(DoubleArray f, LongArray fOff, IntArray node, DoubleArray s, LongArray sOff, IntArray dims,
            DoubleArray out, LongArray outOff, LongArray entryStart, int blocks, long total, int transposeIn, int transposeOut) {
        for (@Parallel long q = 0; q < total; q++) {
            int lo = 0;
            int hi = blocks - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) / 2;
                if (entryStart.get(mid) <= q) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            int b = lo;
            int m = dims.get(3 * b);
            int k = dims.get(3 * b + 2);
            long e = q - entryStart.get(b);
            int i = (int) (e % m);
            int j = (int) (e / m);
            long fo = fOff.get(node.get(b)) + (long) i * k;
            double acc = 0.0;
            if (transposeIn == 0) {
                acc = addProducts(0.0, f, fo, 1, s, sOff.get(b) + (long) j * k, 1, k);
            } else {
                int n = dims.get(3 * b + 1);
                acc = addProducts(0.0, f, fo, 1, s, sOff.get(b) + j, n, k);
            }
            if (transposeOut == 0) {
                out.set(outOff.get(b) + e, acc);
            } else {
                int n = dims.get(3 * b + 1);
                out.set(outOff.get(b) + (long) i * n + j, acc);
            }
        }
    }
}
