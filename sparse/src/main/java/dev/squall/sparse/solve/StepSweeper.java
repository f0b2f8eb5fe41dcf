package dev.squall.sparse.solve;

import dev.squall.sparse.inspect.Schedule;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.List;

/**
 * What the sweepers over a schedule-ordered copy of the matrix ({@link EllSweeper}, {@link DiaSweeper}) share: the
 * schedule's groups planned into {@link Sweeps.Step}s (runs of small groups chained into one launch, the others one
 * launch each), the forward sweep over the steps in order and the backward one over them last to first.
 */
abstract sealed class StepSweeper implements Sweeper permits EllSweeper, DiaSweeper {
    private final List<Sweeps.Step> steps;
    private final String layout;

    /** Plans {@code schedule}'s groups with {@code chainMax} as in {@link Sweeps}; {@code layout} names the layout. */
    StepSweeper(Schedule schedule, int chainMax, String layout) {
        this.steps = Sweeps.plan(schedule, chainMax);
        this.layout = layout;
    }

    /**
     * Appends the launch of step {@code s}: its groups from {@code first} in direction {@code step} (+1 forward,
     * -1 backward), chained in one work-group if {@code s.chain()}, else the one group {@code first}.
     */
    abstract void add(TaskGraph g, String prefix, KernelArray b, KernelArray x, int first, Sweeps.Step s, int step);

    @Override
    public void appendForward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        for (Sweeps.Step s : steps) add(g, prefix, b, x, s.first(), s, 1);
    }

    @Override
    public void appendBackward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        for (int t = steps.size() - 1; t >= 0; t--) {
            Sweeps.Step s = steps.get(t);
            add(g, prefix, b, x, s.first() + s.count() - 1, s, -1);
        }
    }

    @Override
    public int forwardLaunches() {
        return steps.size();
    }

    @Override
    public int backwardLaunches() {
        return steps.size();
    }

    @Override
    public int chainedGroups() {
        int c = 0;
        for (Sweeps.Step s : steps) if (s.chain()) c += s.count();
        return c;
    }

    @Override
    public String layout() {
        return layout;
    }
}
