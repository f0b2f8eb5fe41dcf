package dev.squall.sparse.solve;

import static dev.squall.sparse.exec.DeviceArrays.ints;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * Sweeps over a copy of the matrix laid out for them: position {@code k} of the forward schedule's order holds row
 * {@code order[k]}'s off-diagonal entries column-major ({@code [q * n + k]}, ELL with one slot count per position) and
 * its diagonal, so the work-items of a level or colour, which take consecutive positions, read consecutive addresses.
 * The backward sweep walks the same groups last to first, which for colours is their mirror and for level sets is a
 * valid backward schedule (every dependence joins two levels, so reversing the levels reverses each dependence).
 */
public final class EllSweeper extends StepSweeper {
    private final Precision p;
    private final int n;
    private final Schedule schedule;
    private final IntArray rowLen;
    private final IntArray col;
    private final KernelArray val;
    private final KernelArray diag;
    private final IntArray order;
    private final IntArray groupPtr;
    private final long slotCount;

    /** Lays {@code a} out in {@code schedule}'s order; {@code chainMax} as in {@link Sweeps}. */
    public EllSweeper(CsrMatrix a, Schedule schedule, Precision p, int chainMax, String layout) {
        super(schedule, chainMax, layout);
        this.p = p;
        this.n = a.rows();
        this.schedule = schedule;
        long slots = slots(a);
        if (slots > Integer.MAX_VALUE - 1L) throw new IllegalArgumentException("ELL sweep layout: " + slots + " slots exceed 2^31; use --layout csr");
        int width = n == 0 ? 0 : (int) (slots / n);
        int[] len = new int[n];
        int[] c = new int[Math.max(1, width * n)];
        double[] v = new double[Math.max(1, width * n)];
        double[] d = new double[Math.max(1, n)];
        int[] ord = schedule.order();
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            int q = 0;
            for (int e = a.rowStart(i); e < a.rowStart(i + 1); e++) {
                int j = a.colIndex(e);
                if (j == i) {
                    d[k] = a.value(e);
                } else {
                    c[q * n + k] = j;
                    v[q * n + k] = a.value(e);
                    q++;
                }
            }
            len[k] = q;
            for (int r = q; r < width; r++) c[r * n + k] = i; // padding: a valid column, never read
            if (d[k] == 0) throw new IllegalArgumentException("row " + i + " has no or a zero diagonal entry");
        }
        this.rowLen = ints(len);
        this.col = ints(c);
        this.val = p.fromDoubles(v);
        this.diag = p.fromDoubles(d);
        this.order = ints(ord);
        this.groupPtr = ints(schedule.groupPtr());
        this.slotCount = slots;
    }

    @Override
    public double bytesPerHalfSweep() {
        int v = p.bytes();
        return slotCount * (4.0 + v) + n * (4.0 + 4.0 + v + 3.0 * v);
    }

    /** ELL slots the layout needs: rows times the most off-diagonal entries of a row. */
    public static long slots(CsrMatrix a) {
        int w = 0;
        for (int i = 0; i < a.rows(); i++) {
            int off = 0;
            for (int e = a.rowStart(i); e < a.rowStart(i + 1); e++) if (a.colIndex(e) != i) off++;
            w = Math.max(w, off);
        }
        return (long) w * a.rows();
    }

    @Override
    void add(TaskGraph g, String prefix, KernelArray b, KernelArray x, int first, Sweeps.Step s, int step) {
        if (s.chain()) {
            WorkerGrid grid = WorkerGrid.of(SolverKernels.GROUP).withLocal(SolverKernels.GROUP);
            g.task(prefix + "/chain" + first, grid, SolverKernelVariants.sweepChainEll.at(p), new KernelContext(), rowLen, col, val, diag, b, x,
                    order, groupPtr, first, s.count(), step, n);
        } else {
            g.task(prefix + "/group" + first, SolverKernelVariants.sweepRowsEll.at(p), rowLen, col, val, diag, b, x, order,
                    schedule.groupPtr()[first], schedule.groupPtr()[first + 1], n);
        }
    }
}
