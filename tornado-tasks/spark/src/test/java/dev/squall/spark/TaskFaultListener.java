package dev.squall.spark;

import org.apache.spark.TaskKilled;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault tests' view of a context's tasks: counts failed and killed task attempts, and kills the first attempt of
 * one partition when it starts ({@link #killFirstAttemptOf}), once.
 */
public final class TaskFaultListener extends SparkListener {
    /** Task attempts that did not succeed (failed, killed or lost with their executor). */
    public final AtomicInteger failed = new AtomicInteger();
    /** Task attempts killed ({@code TaskKilled}). */
    public final AtomicInteger killed = new AtomicInteger();
    private final JavaSparkContext sc;
    private volatile int killPartition = -1;

    private TaskFaultListener(JavaSparkContext sc) {
        this.sc = sc;
    }

    /** A listener registered on {@code sc}. */
    public static TaskFaultListener on(JavaSparkContext sc) {
        TaskFaultListener l = new TaskFaultListener(sc);
        sc.sc().addSparkListener(l);
        return l;
    }

    /** The next first attempt of partition {@code p} to start is killed; -1: none. */
    public void killFirstAttemptOf(int p) {
        killPartition = p;
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        if (!end.taskInfo().successful()) failed.incrementAndGet();
        if (end.reason() instanceof TaskKilled) killed.incrementAndGet();
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart start) {
        if (start.taskInfo().index() == killPartition && start.taskInfo().attemptNumber() == 0) {
            killPartition = -1; // once: the first job's attempt, which waits for it
            sc.sc().killTaskAttempt(start.taskInfo().taskId(), true, "killed by the test");
        }
    }
}
