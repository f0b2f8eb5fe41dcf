package uk.ac.manchester.tornado.api;

/** A 2-dimensional launch grid. */
public class WorkerGrid2D extends AbstractWorkerGrid {
    public WorkerGrid2D(long x, long y) {
        super(2, x, y, 1);
    }
}
