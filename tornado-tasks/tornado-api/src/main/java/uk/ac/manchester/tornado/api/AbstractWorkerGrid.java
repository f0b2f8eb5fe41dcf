package uk.ac.manchester.tornado.api;

/** The global and local work of a 1-, 2- or 3-dimensional grid. */
abstract class AbstractWorkerGrid implements WorkerGrid {
    private final int dims;
    private final long[] global;
    private long[] local;

    AbstractWorkerGrid(int dims, long x, long y, long z) {
        this.dims = dims;
        this.global = new long[] {x, y, z};
        for (int d = 0; d < dims; d++) {
            if (global[d] <= 0) throw new IllegalArgumentException("a worker grid's global work must be positive, got " + global[d] + " in dimension " + d);
        }
    }

    @Override
    public int dimension() {
        return dims;
    }

    @Override
    public long[] getGlobalWork() {
        return global.clone();
    }

    @Override
    public long[] getLocalWork() {
        return local == null ? null : local.clone();
    }

    @Override
    public void setGlobalWork(long x, long y, long z) {
        global[0] = x;
        global[1] = y;
        global[2] = z;
    }

    @Override
    public void setLocalWork(long x, long y, long z) {
        local = new long[] {x, y, z};
    }

    @Override
    public void setLocalWorkToNull() {
        local = null;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + toSquall();
    }
}
