package dev.squall.permanent.cpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs one piece of work on several threads at once: the calling thread and {@code count - 1} daemon platform
 * threads, which share the work through the work's own counter (each takes chunks until none is left).
 */
public final class WorkerThreads {
    private WorkerThreads() {
    }

    /**
     * Runs {@code work} on the calling thread and {@code count - 1} threads named {@code name + "-" + k}, and returns
     * when all are done.
     *
     * @param doing what the work does, for the message if the calling thread is interrupted while waiting
     * @throws IllegalStateException if the calling thread is interrupted while waiting (its interrupt flag is set again)
     */
    public static void run(Runnable work, int count, String name, String doing) {
        List<Thread> workers = new ArrayList<>();
        for (int k = 1; k < count; k++) workers.add(Thread.ofPlatform().daemon().name(name + "-" + k).start(work));
        work.run();
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + doing, e);
            }
        }
    }
}
