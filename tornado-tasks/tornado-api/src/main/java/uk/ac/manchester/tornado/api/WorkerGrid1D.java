package uk.ac.manchester.tornado.api;

/** A 1-dimensional launch grid. */
public class WorkerGrid1D extends AbstractWorkerGrid {
    public WorkerGrid1D(long x) {
        super(1, x, 1, 1);
    }
}
