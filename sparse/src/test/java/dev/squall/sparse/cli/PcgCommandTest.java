package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.testing.CliRunner;
import dev.squall.sparse.testing.TestData;
import org.junit.jupiter.api.Test;

class PcgCommandTest {
    @Test
    void multigridOnHpcgConvergesAndVerifies() {
        Object[] r = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "mg", "--tol", "1e-8", "--device", "jvm", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = (String) r[1];
        assertTrue(json.contains("\"status\":\"converged\"") && json.contains("\"verified\":true") && json.contains("\"history\":[1.0,"), json);
        assertTrue(json.contains("multigrid V-cycle, 3 levels (8x8x8"), json);
    }

    @Test
    void ilu0OnAFileReportsIterationsAndRate() {
        Object[] r = CliRunner.run(new PcgCommand(), "--matrix", TestData.file("ani4.mtx").toString(), "--precond", "ilu0", "--device", "jvm", "--verify");
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("status     converged") && out.contains("GFLOP/s as HPCG counts") && out.contains(": ok"), out);
    }

    @Test
    void iterationLimitExitsOneWithTheStatus() {
        Object[] r = CliRunner.run(new PcgCommand(), "--matrix", TestData.file("1138_bus.mtx").toString(), "--precond", "none", "--max-iter", "5", "--device", "jvm");
        assertEquals(1, r[0]);
        assertTrue(((String) r[1]).contains("status     max_iterations"), (String) r[1]);
    }

    @Test
    void multigridWithoutAGridIsBadInput() {
        Object[] r = CliRunner.run(new PcgCommand(), "--matrix", TestData.file("ani1.mtx").toString(), "--precond", "mg", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--precond mg needs a generated"), (String) r[2]);
    }
}
