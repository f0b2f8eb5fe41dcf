package dev.squall.sparse.testing;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;

/**
 * The SuiteSparse test matrices, kept as test resources ({@code suitesparse/}, copied from the shared data
 * with their README) so the tests run the same in a fresh clone, in CI and from the GPU bundle.
 */
public final class TestData {
    public static final List<String> MATRICES = List.of("1138_bus.mtx", "ani1.mtx", "ani4.mtx", "bcsstk01.mtx",
            "mesh1e1.mtx", "mycielskian6.mtx");

    private TestData() {
    }

    public static Path dir() {
        String prop = System.getProperty("squall.test.data");
        if (prop != null) return Path.of(prop);
        URL readme = TestData.class.getResource("/suitesparse/README.md");
        if (readme == null) throw new IllegalStateException("test resources suitesparse/ are missing from the class path");
        try {
            return Path.of(readme.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Path file(String name) {
        return dir().resolve(name);
    }
}
