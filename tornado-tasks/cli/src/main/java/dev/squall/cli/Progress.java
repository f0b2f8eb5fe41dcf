package dev.squall.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A progress bar on stderr (me.tongfei:progressbar) with elapsed time and ETA, for a phase of known size. It appears
 * only once the phase has run {@link #DELAY_MILLIS} (short runs print nothing), only when stderr is a terminal, and
 * never under {@code --json}; {@link #open} with {@code enabled = false} gives one that draws nothing. The bar redraws
 * itself every second, so a phase that reports no steps for a while still shows its elapsed time.
 *
 * <pre>{@code
 * try (Progress p = Progress.open(run.progress(), "cholesky", runs, "runs")) {
 *     for (int r = 0; r < runs; r++) { ...; p.step(); }
 * }
 * }</pre>
 */
public final class Progress implements AutoCloseable {
    /** A phase shorter than this shows no bar. */
    public static final long DELAY_MILLIS = 2000;

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "squall-progress");
        t.setDaemon(true);
        return t;
    });

    private final boolean enabled;
    private final String task;
    private final String unit;
    private final long startNanos = System.nanoTime();
    private final ScheduledFuture<?> showLater;
    private long total;
    private long done;
    private ProgressBar bar;
    private boolean closed;

    private Progress(boolean enabled, String task, long total, String unit) {
        this.enabled = enabled;
        this.task = task;
        this.total = total;
        this.unit = unit;
        this.showLater = enabled ? TIMER.schedule(this::show, DELAY_MILLIS, TimeUnit.MILLISECONDS) : null;
    }

    /**
     * A bar for {@code task} of {@code total} steps counted in {@code unit} (words: "runs", "Gray steps"); drawn only
     * when {@code enabled} (see {@link RunOptions#progress()}), and only after {@link #DELAY_MILLIS}.
     */
    public static Progress open(boolean enabled, String task, long total, String unit) {
        return new Progress(enabled, task, total, unit);
    }

    /** One that never draws. */
    public static Progress none() {
        return new Progress(false, "", 0, "");
    }

    /** One more step done. */
    public void step() {
        stepTo(done + 1);
    }

    /** {@code n} steps done so far. */
    public synchronized void stepTo(long n) {
        done = n;
        if (bar != null) bar.stepTo(n);
        else if (enabled && !closed && System.nanoTime() - startNanos > DELAY_MILLIS * 1_000_000L) show();
    }

    /** Changes the total (a phase that learns its size while running). */
    public synchronized void total(long n) {
        total = n;
        if (bar != null) bar.maxHint(n);
    }

    private synchronized void show() {
        if (closed || bar != null) return;
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setUnit(" " + unit, 1)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(1000).continuousUpdate()
                .setConsumer(new ConsoleProgressBarConsumer(System.err, width()))
                .startsFrom(done, elapsed).build();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (showLater != null) showLater.cancel(false);
        if (bar != null) {
            bar.stepTo(done);
            bar.close();
            bar = null;
        }
    }

    /** Whether stderr is a terminal ({@code -Dsquall.progress=always|never} overrides; tests and captures use it). */
    public static boolean stderrIsTerminal() {
        String forced = System.getProperty("squall.progress", "");
        if (forced.equals("always")) return true;
        if (forced.equals("never")) return false;
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            Console c = System.console();
            return c != null && c.isTerminal();
        }
    }

    /** The terminal's width from {@code COLUMNS}, else 100 columns. */
    private static int width() {
        try {
            return Math.max(40, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "100").strip()));
        } catch (NumberFormatException e) {
            return 100;
        }
    }
}
