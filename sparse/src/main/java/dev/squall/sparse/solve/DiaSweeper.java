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
import java.util.Arrays;

/**
 * Sweeps over a diagonal (DIA) copy of the matrix in the forward schedule's order: the off-diagonal entries lie on
 * few diagonals {@code j - i = offset[q]} (26 for the 27-point stencil), so position {@code k} keeps only the value
 * of row {@code order[k]} on each diagonal, column-major ({@code [q * n + k]}), and the kernels compute the column
 * from the row. Against {@link EllSweeper} this drops the 4-byte column index of every entry and the row lengths, a
 * third of a stencil's matrix traffic in fp64. The groups run as in {@link EllSweeper} (backward: last to first).
 */
public final class DiaSweeper extends StepSweeper {
    /** Most diagonals the layout takes. */
    public static final int MAX_DIAGONALS = 64;

    private final Precision p;
    private final int n;
    private final int width;
    private final Schedule schedule;
    private final IntArray offset;
    private final KernelArray val;
    private final KernelArray diag;
    private final IntArray order;
    private final IntArray groupPtr;

    /**
     * Lays {@code a} out in {@code schedule}'s order; {@code chainMax} as in {@link Sweeps}.
     *
     * @throws IllegalArgumentException if the off-diagonal entries lie on more than {@link #MAX_DIAGONALS} diagonals,
     *                                  the slots exceed 2^31, or a row has no or a zero diagonal entry
     */
    public DiaSweeper(CsrMatrix a, Schedule schedule, Precision p, int chainMax, String layout) {
        this(a, offsets(a, MAX_DIAGONALS), schedule, p, chainMax, layout);
    }

    /** As {@link #DiaSweeper(CsrMatrix, Schedule, Precision, int, String)} with the diagonals already found by {@link #offsets}. */
    DiaSweeper(CsrMatrix a, int[] offs, Schedule schedule, Precision p, int chainMax, String layout) {
        super(schedule, chainMax, layout);
        this.p = p;
        this.n = a.rows();
        this.schedule = schedule;
        if (offs == null) {
            throw new IllegalArgumentException("DIA sweep layout: the off-diagonal entries lie on more than " + MAX_DIAGONALS
                    + " diagonals; use --layout ell or csr");
        }
        this.width = offs.length;
        if ((long) width * n > Integer.MAX_VALUE - 1L) throw new IllegalArgumentException("DIA sweep layout: " + (long) width * n + " slots exceed 2^31; use --layout csr");
        double[] v = new double[Math.max(1, width * n)];
        double[] d = new double[Math.max(1, n)];
        int[] ord = schedule.order();
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            for (int e = a.rowStart(i); e < a.rowStart(i + 1); e++) {
                int j = a.colIndex(e);
                if (j == i) {
                    d[k] = a.value(e);
                } else {
                    v[Arrays.binarySearch(offs, j - i) * n + k] = a.value(e);
                }
            }
            if (d[k] == 0) throw new IllegalArgumentException("row " + i + " has no or a zero diagonal entry");
        }
        this.offset = ints(width == 0 ? new int[1] : offs);
        this.val = p.fromDoubles(v);
        this.diag = p.fromDoubles(d);
        this.order = ints(ord);
        this.groupPtr = ints(schedule.groupPtr());
    }

    /** The sorted distinct offsets {@code j - i} of {@code a}'s off-diagonal entries, or null if there are more than {@code max}. */
    public static int[] offsets(CsrMatrix a, int max) {
        // open addressing over a table of at least 4 max slots: one probe per entry in the usual case
        int cap = Integer.highestOneBit(Math.max(4, 4 * max)) << 1;
        int[] key = new int[cap];
        boolean[] used = new boolean[cap];
        int[] found = new int[max + 1];
        int count = 0;
        for (int i = 0; i < a.rows(); i++) {
            for (int e = a.rowStart(i); e < a.rowStart(i + 1); e++) {
                int j = a.colIndex(e);
                if (j == i) continue;
                int d = j - i;
                int h = (d * 0x9E3779B1) >>> (32 - Integer.numberOfTrailingZeros(cap));
                while (used[h] && key[h] != d) h = (h + 1) & (cap - 1);
                if (!used[h]) {
                    if (count == max) return null;
                    used[h] = true;
                    key[h] = d;
                    found[count++] = d;
                }
            }
        }
        int[] out = Arrays.copyOf(found, count);
        Arrays.sort(out);
        return out;
    }

    @Override
    public double bytesPerHalfSweep() {
        int v = p.bytes();
        return (double) width * n * v + n * (4.0 + v + 3.0 * v);
    }

    /** Diagonals stored per row. */
    public int width() {
        return width;
    }

    @Override
    void add(TaskGraph g, String prefix, KernelArray b, KernelArray x, int first, Sweeps.Step s, int step) {
        if (s.chain()) {
            WorkerGrid grid = WorkerGrid.of(SolverKernels.GROUP).withLocal(SolverKernels.GROUP);
            g.task(prefix + "/chain" + first, grid, SolverKernelVariants.sweepChainDia.at(p), new KernelContext(), offset, val, diag, b, x,
                    order, groupPtr, first, s.count(), step, n, width);
        } else {
            g.task(prefix + "/group" + first, SolverKernelVariants.sweepRowsDia.at(p), offset, val, diag, b, x, order,
                    schedule.groupPtr()[first], schedule.groupPtr()[first + 1], n, width);
        }
    }
}
