package dev.squall.sparse.inspect;

import java.util.Arrays;
import java.util.Locale;

/**
 * An inspector's schedule for a sweep: rows in execution order ({@link #order}) cut into groups
 * ({@code order[groupPtr[g]..groupPtr[g + 1])}) whose rows do not depend on each other, run one group after another.
 * Groups are level sets (wavefronts) of the forward or backward sweep, or colours.
 *
 * <pre>{@code
 * Schedule s = LevelSets.forward(DependenceGraph.of(a));
 * System.out.println(s.describe());     // "forward levels: 43 groups, rows per group min 1 mean 7.3 max 22"
 * }</pre>
 *
 * @param kind            what the groups are
 * @param order           rows in execution order, grouped
 * @param groupPtr        group boundaries in {@code order} (groups + 1 entries, from 0 to rows)
 * @param inspectorMillis time the inspector took (dependence graph excluded unless stated by the builder)
 */
public record Schedule(Kind kind, int[] order, int[] groupPtr, double inspectorMillis) {
    /** What a schedule's groups are. */
    public enum Kind {
        FORWARD_LEVELS("forward levels"),
        BACKWARD_LEVELS("backward levels"),
        COLOURS("colours"),
        REVERSED_COLOURS("colours, reversed");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** Words for reports. */
        public String text() {
            return text;
        }
    }

    /** Number of groups. */
    public int groups() {
        return groupPtr.length - 1;
    }

    /** Number of rows. */
    public int rows() {
        return order.length;
    }

    /** Rows in group {@code g}. */
    public int rowsIn(int g) {
        return groupPtr[g + 1] - groupPtr[g];
    }

    /** Rows in the smallest group (0 for no groups). */
    public int minRows() {
        int m = Integer.MAX_VALUE;
        for (int g = 0; g < groups(); g++) m = Math.min(m, rowsIn(g));
        return groups() == 0 ? 0 : m;
    }

    /** Rows in the largest group. */
    public int maxRows() {
        int m = 0;
        for (int g = 0; g < groups(); g++) m = Math.max(m, rowsIn(g));
        return m;
    }

    /** Mean rows per group. */
    public double meanRows() {
        return groups() == 0 ? 0 : (double) rows() / groups();
    }

    /** The group of each row. */
    public int[] groupOf() {
        int[] r = new int[order.length];
        for (int g = 0; g < groups(); g++) for (int k = groupPtr[g]; k < groupPtr[g + 1]; k++) r[order[k]] = g;
        return r;
    }

    /** The same groups run last to first (for colours: the backward half of a symmetric sweep). */
    public Schedule reversed() {
        int n = order.length;
        int[] o = new int[n];
        int[] p = new int[groupPtr.length];
        int w = 0;
        for (int g = groups() - 1; g >= 0; g--) {
            for (int k = groupPtr[g]; k < groupPtr[g + 1]; k++) o[w++] = order[k];
            p[groups() - g] = w;
        }
        Kind k = switch (kind) {
            case FORWARD_LEVELS -> Kind.BACKWARD_LEVELS;
            case BACKWARD_LEVELS -> Kind.FORWARD_LEVELS;
            case COLOURS -> Kind.REVERSED_COLOURS;
            case REVERSED_COLOURS -> Kind.COLOURS;
        };
        return new Schedule(k, o, p, 0);
    }

    /** One line: kind, groups and rows per group. */
    public String describe() {
        return String.format(Locale.ROOT, "%s: %d groups, rows per group min %d mean %.1f max %d", kind.text(), groups(), minRows(), meanRows(), maxRows());
    }

    /** Rows per group, first {@code limit} groups, for reports. */
    public String rowsPerGroup(int limit) {
        int m = Math.min(limit, groups());
        int[] r = new int[m];
        for (int g = 0; g < m; g++) r[g] = rowsIn(g);
        return Arrays.toString(r) + (m < groups() ? " ..." : "");
    }
}
