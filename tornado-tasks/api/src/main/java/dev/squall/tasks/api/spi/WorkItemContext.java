package dev.squall.tasks.api.spi;

import dev.squall.tasks.api.KernelContext;

/**
 * The {@link KernelContext} that a generated JVM work-group runner hands to device functions and
 * uses for atomics: its ids are those of the work-item the runner is executing, set by
 * {@link #group} and {@link #at}. Barriers, local memory and sub-group operations are not
 * available here: the runner executes them itself, between its loops over the work-items.
 */
public final class WorkItemContext extends KernelContext {
    public WorkItemContext(WorkGroupGrid grid) {
        globalGroupSizeX = grid.globalX;
        globalGroupSizeY = grid.globalY;
        globalGroupSizeZ = grid.globalZ;
        localGroupSizeX = grid.localX;
        localGroupSizeY = grid.localY;
        localGroupSizeZ = grid.localZ;
    }

    /** Moves to work-group {@code (gx, gy, gz)}. */
    public void group(int gx, int gy, int gz) {
        groupIdx = gx;
        groupIdy = gy;
        groupIdz = gz;
    }

    /** Moves to the work-item with local ids {@code (lx, ly, lz)} of the current group; returns this context. */
    public WorkItemContext at(int lx, int ly, int lz) {
        localIdx = lx;
        localIdy = ly;
        localIdz = lz;
        globalIdx = groupIdx * localGroupSizeX + lx;
        globalIdy = groupIdy * localGroupSizeY + ly;
        globalIdz = groupIdz * localGroupSizeZ + lz;
        return this;
    }

    @Override
    public void localBarrier() {
        throw new IllegalStateException("a barrier reached through a device function: the generated work-group runner cannot split there");
    }
}
