package dev.squall.sparse.sgd;

/**
 * What the inspector produced: an order of the ratings, cut into tasks (ranges of that order applied in sequence by
 * one worker), and the tasks cut into steps (ranges of tasks launched together). Step {@code s} holds the tasks
 * {@code stepPtr[s] .. stepPtr[s+1]-1}; task {@code t} holds the positions {@code taskPtr[t] .. taskPtr[t+1]-1} of
 * {@code order}, which are rating indices. Steps run one after the other; for a conflict-free kind no two tasks of a
 * step share a user or an item ({@link #firstConflict}). Empty tasks and steps are never produced.
 */
public record Schedule(ScheduleKind kind, int[] order, int[] taskPtr, int[] stepPtr, String detail) {
    /** Number of steps (launches per epoch). */
    public int steps() {
        return stepPtr.length - 1;
    }

    /** Number of tasks. */
    public int tasks() {
        return taskPtr.length - 1;
    }

    /** Number of ratings scheduled. */
    public int size() {
        return order.length;
    }

    /**
     * The critical path in updates: the sum over steps of the step's longest task. Steps run one after another and a
     * task's ratings one after another, so an epoch takes at least {@code span} dependent updates however many workers
     * run; for a conflict-free schedule it is at least {@link #largestRowDegree} (all ratings of a row are serial).
     */
    public long span() {
        long sum = 0;
        for (int s = 0; s < steps(); s++) {
            int m = 0;
            for (int t = stepPtr[s]; t < stepPtr[s + 1]; t++) m = Math.max(m, taskPtr[t + 1] - taskPtr[t]);
            sum += m;
        }
        return sum;
    }

    /** The most ratings of one user or one item: no conflict-free schedule has a shorter {@link #span}. */
    public static int largestRowDegree(Ratings r) {
        int m = 0;
        for (int d : r.userDegrees()) m = Math.max(m, d);
        for (int d : r.itemDegrees()) m = Math.max(m, d);
        return m;
    }

    /** Largest number of tasks in one step (the parallelism the schedule offers). */
    public int widestStep() {
        int m = 0;
        for (int s = 0; s < steps(); s++) m = Math.max(m, stepPtr[s + 1] - stepPtr[s]);
        return m;
    }

    /**
     * The first place where two tasks of one step touch the same user or item row, as a sentence, or null when there
     * is none (every step conflict-free). Also checks that the schedule holds each rating exactly once.
     */
    public String firstConflict(Ratings r) {
        if (order.length != r.size()) return "the schedule holds " + order.length + " ratings, the matrix " + r.size();
        boolean[] seen = new boolean[r.size()];
        for (int e : order) {
            if (e < 0 || e >= r.size() || seen[e]) return "rating " + e + " is scheduled twice or is out of range";
            seen[e] = true;
        }
        int[] userTask = new int[r.users()];
        int[] itemTask = new int[r.items()];
        java.util.Arrays.fill(userTask, -1);
        java.util.Arrays.fill(itemTask, -1);
        for (int s = 0; s < steps(); s++) {
            for (int t = stepPtr[s]; t < stepPtr[s + 1]; t++) {
                for (int p = taskPtr[t]; p < taskPtr[t + 1]; p++) {
                    int e = order[p];
                    int u = r.user(e), i = r.item(e);
                    // task ids grow with the step, so a mark from an earlier step is below this step's first task
                    if (userTask[u] >= stepPtr[s] && userTask[u] != t) {
                        return "step " + s + ": user " + u + " is touched by tasks " + userTask[u] + " and " + t;
                    }
                    if (itemTask[i] >= stepPtr[s] && itemTask[i] != t) {
                        return "step " + s + ": item " + i + " is touched by tasks " + itemTask[i] + " and " + t;
                    }
                    userTask[u] = t;
                    itemTask[i] = t;
                }
            }
        }
        return null;
    }
}
