package uk.ac.manchester.tornado.api;

/** A 3-dimensional launch grid. */
public class WorkerGrid3D extends AbstractWorkerGrid {
    public WorkerGrid3D(long x, long y, long z) {
        super(3, x, y, z);
    }
}
