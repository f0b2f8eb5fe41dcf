package dev.squall.tasks.api.spi;

/**
 * The launch grid of an SPMD kernel as the JVM's generated work-group runners see it: global and
 * local sizes per dimension (1 where unused) and the number of work-groups. Work-group {@code g}
 * (linear, x fastest) has ids {@link #groupX(long)}, {@link #groupY(long)}, {@link #groupZ(long)}.
 */
public final class WorkGroupGrid {
    public final int globalX, globalY, globalZ;
    public final int localX, localY, localZ;
    public final int groupsX, groupsY, groupsZ;
    /** Work-items per group. */
    public final int groupSize;
    /** Work-items per sub-group: {@code min(32, groupSize)}, as {@code KernelContext.subgroupSize()}. */
    public final int subgroupSize;

    /**
     * @param global work-items per dimension (1..3 entries)
     * @param local  work-group size per dimension, each dividing the global size
     */
    public WorkGroupGrid(long[] global, long[] local) {
        if (global.length < 1 || global.length > 3 || local.length != global.length) {
            throw new IllegalArgumentException("a grid has 1 to 3 dimensions and one local size per dimension, got global "
                    + global.length + " and local " + local.length);
        }
        int[] g = {1, 1, 1}, l = {1, 1, 1};
        for (int d = 0; d < global.length; d++) {
            g[d] = Math.toIntExact(global[d]);
            l[d] = Math.toIntExact(local[d]);
            if (l[d] <= 0 || g[d] % l[d] != 0) {
                throw new IllegalArgumentException("local size " + l[d] + " must be positive and divide global size " + g[d] + " (dimension " + d + ")");
            }
        }
        globalX = g[0];
        globalY = g[1];
        globalZ = g[2];
        localX = l[0];
        localY = l[1];
        localZ = l[2];
        groupsX = g[0] / l[0];
        groupsY = g[1] / l[1];
        groupsZ = g[2] / l[2];
        groupSize = Math.multiplyExact(Math.multiplyExact(l[0], l[1]), l[2]);
        subgroupSize = Math.min(32, groupSize);
    }

    /** Number of work-groups. */
    public long groupCount() {
        return (long) groupsX * groupsY * groupsZ;
    }

    public int groupX(long g) {
        return (int) (g % groupsX);
    }

    public int groupY(long g) {
        return (int) (g / groupsX % groupsY);
    }

    public int groupZ(long g) {
        return (int) (g / groupsX / groupsY);
    }
}
