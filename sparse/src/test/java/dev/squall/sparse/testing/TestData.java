package dev.squall.sparse.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Finds the shared SuiteSparse test matrices ({@code shared/data}) above the working directory. */
public final class TestData {
    public static final List<String> MATRICES = List.of("1138_bus.mtx", "ani1.mtx", "ani4.mtx", "bcsstk01.mtx",
            "mesh1e1.mtx", "mycielskian6.mtx");

    private TestData() {
    }

    public static Path dir() {
        String prop = System.getProperty("squall.test.data");
        if (prop != null) return Path.of(prop);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("shared/data"))) return p.resolve("shared/data");
        }
        Assumptions.abort("shared/data not found above " + Path.of("").toAbsolutePath() + " (set -Dsquall.test.data)");
        return null;
    }

    public static Path file(String name) {
        return dir().resolve(name);
    }
}
