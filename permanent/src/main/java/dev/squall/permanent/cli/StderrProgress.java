package dev.squall.permanent.cli;

import dev.squall.cli.Progress;
import dev.squall.permanent.gray.ProgressListener;

/**
 * Gray-code progress as a bar on stderr ({@link Progress}: after two seconds, with ETA, only on a terminal and without
 * {@code --json}). The solver reports steps of each sweep; a new total starts the count again.
 */
final class StderrProgress implements ProgressListener, AutoCloseable {
    private final Progress bar;
    private long total = -1;

    StderrProgress(boolean enabled, String task) {
        bar = Progress.open(enabled, task, 1, "Gray steps");
    }

    @Override
    public synchronized void stepsDone(long done, long total) {
        if (total != this.total) {
            this.total = total;
            bar.total(total);
        }
        bar.stepTo(done);
    }

    @Override
    public void close() {
        bar.close();
    }
}
