package dev.squall.permanent.gray;

/** Told how many Gray-code steps are done; called from worker threads, so implementations must be thread-safe. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (done, total) -> { };

    void stepsDone(long done, long total);
}
