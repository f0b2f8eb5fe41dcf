package dev.squall.sparse.multigrid;

import static dev.squall.sparse.exec.DeviceArrays.ints;

import dev.squall.sparse.exec.OneCall;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.precond.Preconditioner;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Sweeper;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.spmv.SpmvLaunches;
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
 * symmetric Gauss-Seidel sweep, restricts its residual by injection ({@code r_c = (r - A x)} at the even grid points),
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
                         KernelArray x, KernelArray r, KernelArray axf, KernelArray coef, IntArray fineOfCoarse, int coarseRows) {
    }

    private final List<Level> levels;
    private final Precision p;
    private final Device device;
    private final double setupMillis;
    private KernelArray boundZ;
    private SpmvLaunches.Bound fineSpmv;

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
            KernelArray axf = coarser ? p.allocate(n) : null;
            KernelArray coef = p.fromDoubles(new double[] {1, 0});
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
            ls.add(new Level(nx, ny, nz, m, plan, Sweeper.create(m, plan, p, chainMax, layout, device.info().isGpu()), x, r, axf, coef, f2c, nc));
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
            bytes += last ? 2 * pass : 5 * pass;
        }
        return bytes;
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        if (boundZ == null) {
            Level top = levels.get(0);
            if (levels.size() > 1) fineSpmv = SpmvLaunches.bind(top.m().matrix(), FormatChooser.choose(top.m().matrix(), device).format(), p, device, z, top.axf(), top.coef());
            boundZ = z;
        } else if (boundZ != z) {
            throw new IllegalArgumentException("this multigrid is bound to one z vector; make another for a different solver");
        }
        cycle(g, prefix, 0, r, z);
    }

    private void cycle(TaskGraph g, String prefix, int l, KernelArray r, KernelArray x) {
        Level v = levels.get(l);
        String at = prefix + "/l" + l;
        int n = v.m().rows();
        g.task(at + "/zero", SolverKernelVariants.zero.at(p), x, n);
        smooth(g, at + "/pre", v, r, x);
        if (l == levels.size() - 1) return;
        Level c = levels.get(l + 1);
        SpmvLaunches.Bound spmv = l == 0 ? fineSpmv : coarseSpmv(l);
        spmv.launches().appendTo(OneCall.in(g, "/" + at + "-ax"));
        g.task(at + "/restrict", SolverKernelVariants.restrictResidual.at(p), r, v.axf(), c.r(), v.fineOfCoarse(), v.coarseRows());
        cycle(g, prefix, l + 1, c.r(), c.x());
        g.task(at + "/prolong", SolverKernelVariants.prolongAdd.at(p), x, c.x(), v.fineOfCoarse(), v.coarseRows());
        smooth(g, at + "/post", v, r, x);
    }

    private final java.util.Map<Integer, SpmvLaunches.Bound> coarse = new java.util.HashMap<>();

    private SpmvLaunches.Bound coarseSpmv(int l) {
        return coarse.computeIfAbsent(l, k -> {
            Level v = levels.get(k);
            return SpmvLaunches.bind(v.m().matrix(), FormatChooser.choose(v.m().matrix(), device).format(), p, device, v.x(), v.axf(), v.coef());
        });
    }

    private void smooth(TaskGraph g, String at, Level v, KernelArray r, KernelArray x) {
        v.sweeper().appendForward(g, at + "-f", r, x);
        v.sweeper().appendBackward(g, at + "-b", r, x);
    }
}
