package dev.squall.sparse.sgd;

import java.util.Locale;

/** The update schedules the inspector builds ({@link ScheduleInspector}); {@code cliName} is the {@code --schedule} value. */
public enum ScheduleKind {
    /** Wrapped diagonals {@code (item - user) mod max(users, items)}: one rating a task, one diagonal a step. */
    DIAG("diag", true),
    /** B x B blocks (users and items split into ranges of balanced rating counts), one block diagonal a step, ratings sorted by user in a block. */
    BLKDIAG("blkdiag", true),
    /** DSGD / LIBMF strata: users and items shuffled into B x B equal blocks, strata in seeded random order, ratings shuffled in a block. */
    STRATIFIED("stratified", true),
    /** Lock-free batches: all ratings shuffled, one rating a task, a batch of tasks a step, races between tasks accepted. */
    HOGWILD("hogwild", false);

    private final String cliName;
    private final boolean conflictFree;

    ScheduleKind(String cliName, boolean conflictFree) {
        this.cliName = cliName;
        this.conflictFree = conflictFree;
    }

    /** The {@code --schedule} name. */
    public String cliName() {
        return cliName;
    }

    /** Whether no two tasks of one step touch the same user or item row (so results are deterministic). */
    public boolean conflictFree() {
        return conflictFree;
    }

    /** Parses a {@code --schedule} value (case-insensitive; {@code block-diagonal} and {@code diagonal} also accepted). */
    public static ScheduleKind parse(String s) {
        String t = s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "diag", "diagonal" -> DIAG;
            case "blkdiag", "block-diagonal", "blockdiag" -> BLKDIAG;
            case "stratified", "dsgd" -> STRATIFIED;
            case "hogwild" -> HOGWILD;
            default -> throw new IllegalArgumentException("--schedule '" + s + "': expected blkdiag, diag, stratified or hogwild");
        };
    }
}
