package dev.squall.spark;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class SparkJvmOptionsTest {
    @Test
    void listHasSparksOpensAndSquallsNativeAccess() {
        List<String> all = SparkJvmOptions.all();
        assertTrue(all.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"));
        assertTrue(all.contains("--enable-native-access=ALL-UNNAMED"));
        assertTrue(all.contains("--sun-misc-unsafe-memory-access=allow"));
        assertEquals(SparkJvmOptions.OPENS.length, all.stream().filter(o -> o.startsWith("--add-opens=")).count());
    }

    /** The module's surefire argLine carries the list: this JVM passes the check that contexts make before starting. */
    @Test
    void testJvmCarriesTheOptions() {
        assertEquals(List.of(), SparkJvmOptions.missingInCurrentJvm());
        assertDoesNotThrow(SparkJvmOptions::checkCurrentJvm);
    }
}
