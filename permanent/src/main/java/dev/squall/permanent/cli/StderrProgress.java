package dev.squall.permanent.cli;

import dev.squall.permanent.gray.ProgressListener;

import java.io.PrintStream;

/** Prints progress to stderr at most every two seconds, starting after three; silent for short runs. */
final class StderrProgress implements ProgressListener {
    private final PrintStream err;
    private final long startNanos = System.nanoTime();
    private long lastPrint;

    StderrProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public synchronized void stepsDone(long done, long total) {
        long now = System.nanoTime();
        double elapsed = (now - startNanos) / 1e9;
        if (elapsed < 3 || now - lastPrint < 2_000_000_000L) return;
        lastPrint = now;
        double frac = (double) done / total;
        double eta = frac > 0 ? elapsed * (1 - frac) / frac : Double.NaN;
        err.printf(java.util.Locale.ROOT, "permanent: %5.1f%% of %.3g Gray steps, %.0f s elapsed, about %.0f s left%n", 100 * frac, (double) total, elapsed, eta);
    }
}
