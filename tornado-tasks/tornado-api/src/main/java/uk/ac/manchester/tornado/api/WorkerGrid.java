package uk.ac.manchester.tornado.api;

/** A launch grid: global work per dimension and, optionally, the work-group (local) size. */
public interface WorkerGrid {
    int dimension();

    long[] getGlobalWork();

    /** The local work per dimension, or null to let the runtime choose. */
    long[] getLocalWork();

    void setGlobalWork(long x, long y, long z);

    void setLocalWork(long x, long y, long z);

    void setLocalWorkToNull();

    /** Squall's form of this grid. */
    default dev.squall.tasks.runtime.WorkerGrid toSquall() {
        long[] g = java.util.Arrays.copyOf(getGlobalWork(), dimension()), l = getLocalWork();
        dev.squall.tasks.runtime.WorkerGrid out = dev.squall.tasks.runtime.WorkerGrid.of(g);
        return l == null ? out : out.withLocal(java.util.Arrays.copyOf(l, dimension()));
    }
}
