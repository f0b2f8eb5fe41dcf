package dev.squall.sparse.solve;

import static dev.squall.sparse.exec.DeviceArrays.ints;

import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.ArrayList;
import java.util.List;

/**
 * The launches of one sweep over a {@link Schedule}: one launch per group (level or colour), except that runs of
 * consecutive narrow groups (at most {@code chainMax} rows each) go to one launch of a single work-group that walks
 * them with a barrier between groups ({@link SolverKernels#sweepChain}), so a sweep with hundreds of narrow levels
 * does not cost hundreds of launches. The schedule's arrays are made once here and copied to the device on first use.
 *
 * <pre>{@code
 * Sweeps fwd = new Sweeps(LevelSets.forward(graph), 512);
 * fwd.append(graph, "gs-fwd", p, m, m.val(), b, x, SolverKernels.ALL, 0);
 * }</pre>
 */
public final class Sweeps {
    /** One launch: groups {@code first..first+count-1}, chained when {@code chain}. */
    public record Step(int first, int count, boolean chain) {
    }

    private final Schedule schedule;
    private final IntArray order;
    private final IntArray groupPtr;
    private final List<Step> steps;

    /** Plans the launches of {@code schedule}; {@code chainMax} 0 gives every group its own launch. */
    public Sweeps(Schedule schedule, int chainMax) {
        if (chainMax < 0) throw new IllegalArgumentException("chainMax " + chainMax + " must be at least 0");
        this.schedule = schedule;
        this.order = ints(schedule.order());
        this.groupPtr = ints(schedule.groupPtr());
        this.steps = plan(schedule, chainMax);
    }

    static List<Step> plan(Schedule s, int chainMax) {
        List<Step> r = new ArrayList<>();
        int g = 0;
        int groups = s.groups();
        while (g < groups) {
            int e = g;
            while (e < groups && s.rowsIn(e) <= chainMax) e++;
            if (e - g >= 2) {
                r.add(new Step(g, e - g, true));
                g = e;
            } else {
                r.add(new Step(g, 1, false));
                g++;
            }
        }
        return r;
    }

    /** The schedule swept. */
    public Schedule schedule() {
        return schedule;
    }

    /** The launches of one sweep, in order. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** Launches per sweep. */
    public int launches() {
        return steps.size();
    }

    /** Groups walked inside chains. */
    public int chainedGroups() {
        int c = 0;
        for (Step s : steps) if (s.chain()) c += s.count();
        return c;
    }

    /**
     * Appends one sweep {@code x[i] = (b[i] - sum_part val_ij x[j]) / (unit ? 1 : val_ii)} over the schedule's groups
     * in order; task names start with {@code prefix}.
     */
    public void append(TaskGraph g, String prefix, Precision p, DeviceMatrix m, KernelArray val, KernelArray b, KernelArray x, int part, int unit) {
        for (Step s : steps) {
            if (s.chain()) {
                WorkerGrid grid = WorkerGrid.of(SolverKernels.GROUP).withLocal(SolverKernels.GROUP);
                g.task(prefix + "/chain" + s.first(), grid, SolverKernelVariants.sweepChain.at(p), new KernelContext(), m.rowPtr(), m.col(), val,
                        m.diagPos(), b, x, order, groupPtr, s.first(), s.count(), 1, part, unit);
            } else {
                int start = schedule.groupPtr()[s.first()];
                int end = schedule.groupPtr()[s.first() + 1];
                g.task(prefix + "/group" + s.first(), SolverKernelVariants.sweepRows.at(p), m.rowPtr(), m.col(), val, m.diagPos(), b, x, order,
                        start, end, part, unit);
            }
        }
    }

    /** Appends ILU(0)'s factorisation of {@code lu} (a copy of the values) level by level; the schedule must keep row order's dependences. */
    public void appendIlu(TaskGraph g, String prefix, Precision p, DeviceMatrix m, KernelArray lu) {
        for (int grp = 0; grp < schedule.groups(); grp++) {
            g.task(prefix + "/level" + grp, SolverKernelVariants.iluRows.at(p), m.rowPtr(), m.col(), lu, m.diagPos(), order,
                    schedule.groupPtr()[grp], schedule.groupPtr()[grp + 1]);
        }
    }
}
