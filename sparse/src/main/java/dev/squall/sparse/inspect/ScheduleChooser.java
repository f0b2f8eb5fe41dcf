package dev.squall.sparse.inspect;

import dev.squall.tasks.runtime.Device;
import java.util.Locale;

/**
 * Chooses between level sets and colours for a sweep from the rows per level, and says why. Level sets keep the
 * natural order (the sequential sweep exactly, and ILU(0)'s factors), but each level is a launch or a barrier: they pay
 * when a level holds enough rows to fill the device. Otherwise colours (a handful of wide groups) win on time, at the
 * price of a different (colour) order.
 *
 * <pre>{@code
 * ScheduleChooser.Choice c = ScheduleChooser.choose(graph, device);
 * System.out.println(c.schedule().describe() + " (" + c.reason() + ")");
 * }</pre>
 */
public final class ScheduleChooser {
    /** A decision and its reason. */
    public record Choice(Schedule schedule, String reason) {
    }

    private ScheduleChooser() {
    }

    /**
     * Rows a level needs to keep {@code device} busy: on a GPU 512 per compute unit (a quarter of an H100 SM's
     * resident threads, enough to hide latency), elsewhere 64 per core.
     */
    public static long width(Device device) {
        return width(device.info().isGpu(), device.info().computeUnits());
    }

    static long width(boolean gpu, int units) {
        return (long) Math.max(1, units) * (gpu ? 512 : 64);
    }

    /** Level sets when the mean level holds at least {@link #width} rows, colours otherwise. */
    public static Choice choose(DependenceGraph g, Device device) {
        return choose(g, width(device));
    }

    /** As {@link #choose(DependenceGraph, Device)} with the width given. */
    public static Choice choose(DependenceGraph g, long width) {
        Schedule levels = LevelSets.forward(g);
        if (levels.meanRows() >= width) {
            return new Choice(levels, String.format(Locale.ROOT, "level sets: %.0f rows per level on average >= %d the device keeps busy, "
                    + "so the natural order costs no parallelism", levels.meanRows(), width));
        }
        Schedule colours = Colouring.greedy(g);
        return new Choice(colours, String.format(Locale.ROOT, "colours: %.0f rows per level on average < %d the device keeps busy "
                + "(%d levels, %d launches or barriers a sweep); %d colours of %.0f rows on average",
                levels.meanRows(), width, levels.groups(), levels.groups(), colours.groups(), colours.meanRows()));
    }
}
