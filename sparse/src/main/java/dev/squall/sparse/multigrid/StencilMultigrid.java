package dev.squall.sparse.multigrid;

import static dev.squall.sparse.exec.DeviceArrays.ints;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.precond.Phase;
import dev.squall.sparse.precond.Preconditioner;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Sweeper;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HPCG's geometric multigrid V-cycle as a preconditioner for the 7- and 27-point stencils of {@link Stencils}: each
 * coarser level is the same stencil on the grid halved in every dimension; from {@code x = 0}, a level does one
 * symmetric Gauss-Seidel sweep, restricts its residual by injection ({@code r_c = (r - A x)} at the even grid points, {@code A x} computed at those
 * points only, in the same launch),
 * recurses, adds the coarse correction back at those points (prolongation by injection) and does one more symmetric
 * sweep; the coarsest level does one symmetric sweep. Every level's matrix, schedules and vectors stay on the device.
 * Each level's schedule and sweep layout are chosen as for {@link GaussSeidel} ({@code ordering}, {@code layout}).
 *
 * <pre>{@code
 * StencilMultigrid mg = StencilMultigrid.create(27, new int[] {64, 64, 64}, DeviceMatrix.of(a, p), p, device, 4,
 *         GaussSeidel.Ordering.COLOURS, 512, Sweeper.Layout.AUTO);
 * }</pre>
 */
public final class StencilMultigrid implements Preconditioner {
    /** One grid level. */
    private record Level(int nx, int ny, int nz, DeviceMatrix m, GaussSeidel.Plan plan, Sweeper sweeper,
                         KernelArray x, KernelArray r, IntArray fineOfCoarse, int coarseRows) {
    }

    private final List<Level> levels;
    private final Precision p;
    private final Device device;
    private final double setupMillis;
    private KernelArray boundZ;

    private StencilMultigrid(List<Level> levels, Precision p, Device device, double setupMillis) {
        this.levels = levels;
        this.p = p;
        this.device = device;
        this.setupMillis = setupMillis;
    }

    /**
     * The hierarchy below {@code fine} (the {@code points}-point stencil on a grid of {@code dims}): up to
     * {@code maxLevels} levels, halving while every dimension is even and at least 4.
     *
     * @throws IllegalArgumentException if the stencil is not 7 or 27 points in 3 dimensions, or {@code fine} is not it
     */
    public static StencilMultigrid create(int points, int[] dims, DeviceMatrix fine, Precision p, Device device, int maxLevels,
                                          GaussSeidel.Ordering ordering, int chainMax, Sweeper.Layout layout) {
        long t0 = System.nanoTime();
        if (points != 7 && points != 27) throw new IllegalArgumentException("multigrid needs the 7- or 27-point stencil, got " + points + " points");
        if (dims.length != 3) throw new IllegalArgumentException("multigrid needs a 3-D grid, got " + dims.length + " dimensions");
        if (maxLevels < 1) throw new IllegalArgumentException("multigrid levels " + maxLevels + " must be at least 1");
        int nx = dims[0], ny = dims[1], nz = dims[2];
        if ((long) nx * ny * nz != fine.rows()) {
            throw new IllegalArgumentException("grid " + nx + "x" + ny + "x" + nz + " does not match the matrix's " + fine.rows() + " rows");
        }
        List<Level> ls = new ArrayList<>();
        DeviceMatrix m = fine;
        for (int l = 0; l < maxLevels; l++) {
            boolean coarser = l + 1 < maxLevels && nx % 2 == 0 && ny % 2 == 0 && nz % 2 == 0 && nx >= 4 && ny >= 4 && nz >= 4;
            int n = m.rows();
            GaussSeidel.Plan plan = GaussSeidel.Plan.of(m.matrix(), ordering, device);
            KernelArray x = l == 0 ? null : p.allocate(n);
            KernelArray r = l == 0 ? null : p.allocate(n);
            IntArray f2c = null;
            int nc = 0;
            if (coarser) {
                int cx = nx / 2, cy = ny / 2, cz = nz / 2;
                nc = cx * cy * cz;
                int[] map = new int[nc];
                for (int z = 0; z < cz; z++) {
                    for (int y = 0; y < cy; y++) {
                        for (int xx = 0; xx < cx; xx++) map[(z * cy + y) * cx + xx] = (2 * z * ny + 2 * y) * nx + 2 * xx;
                    }
                }
                f2c = ints(map);
            }
            ls.add(new Level(nx, ny, nz, m, plan, Sweeper.create(m, plan, p, chainMax, layout, device.info().isGpu()), x, r, f2c, nc));
            if (!coarser) break;
            nx /= 2;
            ny /= 2;
            nz /= 2;
            m = DeviceMatrix.of(Stencils.of(points, nx, ny, nz), p);
        }
        return new StencilMultigrid(ls, p, device, (System.nanoTime() - t0) / 1e6);
    }

    @Override
    public String name() {
        return "mg";
    }

    /** Number of grid levels. */
    public int levels() {
        return levels.size();
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("multigrid V-cycle, " + levels.size() + " levels (");
        for (int l = 0; l < levels.size(); l++) {
            Level v = levels.get(l);
            if (l > 0) sb.append("; ");
            sb.append(String.format(Locale.ROOT, "%dx%dx%d %s %d", v.nx(), v.ny(), v.nz(),
                    v.plan().forward().kind() == dev.squall.sparse.inspect.Schedule.Kind.COLOURS ? "colours" : "levels", v.plan().forward().groups()));
        }
        return sb.append("), symmetric GS smoother, injection").toString();
    }

    @Override
    public double setupMillis() {
        return setupMillis;
    }

    /** As HPCG counts: 4 nnz per symmetric sweep, and the residual before restriction as a full SpMV (2 nnz) though only its coarse rows are computed. */
    @Override
    public double flopsPerApply() {
        double f = 0;
        for (int l = 0; l < levels.size(); l++) {
            long nnz = levels.get(l).m().matrix().nnz();
            boolean last = l == levels.size() - 1;
            f += last ? 4.0 * nnz : 8.0 * nnz + 2.0 * nnz + 2.0 * levels.get(l).coarseRows();
        }
        return f;
    }

    @Override
    public double bytesPerApply() {
        double bytes = 0;
        int v = p.bytes();
        for (int l = 0; l < levels.size(); l++) {
            CsrMatrix a = levels.get(l).m().matrix();
            double pass = a.nnz() * (4.0 + v) + a.rows() * (4.0 * 3 + 3.0 * v);
            boolean last = l == levels.size() - 1;
            int nc = levels.get(l).coarseRows();
            // the residual at the coarse points reads their rows only (entries, row pointers, x gathered, r, map, r_c)
            double restrict = nc * ((double) a.nnz() / Math.max(1, a.rows()) * (4.0 + v) + 8.0 + 4.0 + 2.0 * v);
            double prolong = nc * (4.0 + 3.0 * v);
            bytes += a.rows() * (double) v + (last ? 2 * pass : 4 * pass + restrict + prolong);
        }
        return bytes;
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        bind(z);
        for (int l = 0; l < levels.size(); l++) down(g, prefix, l, l == 0 ? r : levels.get(l).r(), l == 0 ? z : levels.get(l).x());
        for (int l = levels.size() - 2; l >= 0; l--) up(g, prefix, l, l == 0 ? r : levels.get(l).r(), l == 0 ? z : levels.get(l).x());
    }

    /**
     * The V-cycle's parts, each timed alone by {@link dev.squall.sparse.solve.Pcg#profilePhases}: per level its
     * smoothing (zero, pre- and post-smoother, or the coarsest level's one sweep), its fused residual and restriction,
     * and its prolongation.
     */
    @Override
    public List<Phase> phases(String prefix, KernelArray r, KernelArray z) {
        bind(z);
        List<Phase> out = new ArrayList<>();
        for (int l = 0; l < levels.size(); l++) {
            Level v = levels.get(l);
            KernelArray lr = l == 0 ? r : v.r();
            KernelArray lx = l == 0 ? z : v.x();
            String at = prefix + "/l" + l;
            boolean last = l == levels.size() - 1;
            out.add(new Phase("mg l" + l + " smooth", l, g -> {
                g.task(at + "/zero", SolverKernelVariants.zero.at(p), lx, v.m().rows());
                smooth(g, at + "/pre", v, lr, lx);
                if (!last) smooth(g, at + "/post", v, lr, lx);
            }));
            if (last) break;
            Level c = levels.get(l + 1);
            out.add(new Phase("mg l" + l + " residual+restrict", l, g -> g.task(at + "/restrict", SolverKernelVariants.residualRestrict.at(p),
                    v.m().rowPtr(), v.m().col(), v.m().val(), lr, lx, c.r(), v.fineOfCoarse(), v.coarseRows())));
            out.add(new Phase("mg l" + l + " prolong", l, g -> g.task(at + "/prolong", SolverKernelVariants.prolongAdd.at(p), lx, c.x(),
                    v.fineOfCoarse(), v.coarseRows())));
        }
        return out;
    }

    private void bind(KernelArray z) {
        if (boundZ == null) {
            boundZ = z;
        } else if (boundZ != z) {
            throw new IllegalArgumentException("this multigrid is bound to one z vector; make another for a different solver");
        }
    }

    /** Level l on the way down: x = 0, pre-smoothing, then the coarser level's right-hand side (or the coarsest sweep). */
    private void down(TaskGraph g, String prefix, int l, KernelArray r, KernelArray x) {
        Level v = levels.get(l);
        String at = prefix + "/l" + l;
        g.task(at + "/zero", SolverKernelVariants.zero.at(p), x, v.m().rows());
        smooth(g, at + "/pre", v, r, x);
        if (l == levels.size() - 1) return;
        Level c = levels.get(l + 1);
        g.task(at + "/restrict", SolverKernelVariants.residualRestrict.at(p), v.m().rowPtr(), v.m().col(), v.m().val(), r, x, c.r(),
                v.fineOfCoarse(), v.coarseRows());
    }

    /** Level l on the way up: the coarse correction added at the coarse points, then post-smoothing. */
    private void up(TaskGraph g, String prefix, int l, KernelArray r, KernelArray x) {
        Level v = levels.get(l);
        Level c = levels.get(l + 1);
        String at = prefix + "/l" + l;
        g.task(at + "/prolong", SolverKernelVariants.prolongAdd.at(p), x, c.x(), v.fineOfCoarse(), v.coarseRows());
        smooth(g, at + "/post", v, r, x);
    }

    private void smooth(TaskGraph g, String at, Level v, KernelArray r, KernelArray x) {
        v.sweeper().appendForward(g, at + "-f", r, x);
        v.sweeper().appendBackward(g, at + "-b", r, x);
    }
}
