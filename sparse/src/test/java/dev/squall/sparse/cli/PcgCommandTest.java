package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.squall.sparse.testing.CliRunner;
import dev.squall.sparse.testing.TestData;
import java.util.LinkedHashSet;
import java.util.Set;
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
    void profileSplitsTheIterationIntoPartsThatCoverItsLaunches() throws Exception {
        Object[] r = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "mg", "--device", "jvm", "--profile", "--json");
        assertEquals(0, r[0], (String) r[2]);
        JsonNode j = new ObjectMapper().readTree((String) r[1]);
        int launches = j.get("launches_per_iteration").asInt();
        int sum = 0;
        Set<String> names = new LinkedHashSet<>();
        JsonNode parts = j.get("phases");
        for (int i = 0; i < parts.size() - 1; i++) {
            JsonNode t = parts.get(i);
            sum += t.get("launches").asInt();
            names.add(t.get("name").asText());
            assertTrue(t.get("ms").asDouble() >= 0 && t.get("launches").asInt() > 0, t.toString());
        }
        assertEquals(launches, sum, "the parts' launches add up to the iteration's");
        assertEquals("iteration", parts.get(parts.size() - 1).get("name").asText());
        // 8^3 -> 4^3 -> 2^3 (stops below 4): smoothing on every level, residual+restriction and prolongation on the two finer ones
        for (String n : new String[] {"spmv", "dot pAp", "step+norm", "mg l0 smooth", "mg l0 residual+restrict", "mg l0 prolong", "mg l1 smooth",
                "mg l1 residual+restrict", "mg l1 prolong", "mg l2 smooth", "dot rz", "direction"}) assertTrue(names.contains(n), n + " in " + names);
        assertEquals(false, names.contains("mg l2 prolong"), names.toString());
    }

    @Test
    void singlePrecisionMultigridInsideDoublePrecisionCgVerifies() {
        Object[] r = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "mg", "--precond-precision", "fp32", "--tol", "1e-9",
                "--device", "jvm", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = (String) r[1];
        assertTrue(json.contains("\"status\":\"converged\"") && json.contains("in fp32 (r rounded, z widened)") && json.contains("\"precision\":\"fp64\""), json);
        Object[] bad = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "mg", "--precond-precision", "fp16", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--precond-precision must be same or fp32, got 'fp16'"), (String) bad[2]);
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

    @Test
    void ilu0WithSyncFreeSolvesConvergesAndAutoSaysWhy() {
        for (String sched : new String[] {"syncfree", "syncfree-levels", "levelset", "auto"}) {
            Object[] r = CliRunner.run(new PcgCommand(), "--matrix", TestData.file("ani4.mtx").toString(), "--precond", "ilu0", "--schedule", sched,
                    "--device", "jvm", "--verify");
            assertEquals(0, r[0], (String) r[2]);
            String out = (String) r[1];
            assertTrue(out.contains("status     converged") && out.contains(": ok"), out);
            if (sched.startsWith("syncfree")) assertTrue(out.contains("triangular solves sync-free, rows in " + (sched.equals("syncfree") ? "natural" : "level")
                    + " order (requested), 2 + 2 launches"), out);
            if (sched.equals("levelset")) assertTrue(out.contains("triangular solves level-scheduled (requested)"), out);
            if (sched.equals("auto")) assertTrue(out.contains("triangular solves level-scheduled (auto: CPU device"), out);
        }
        Object[] bad = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "mg", "--schedule", "syncfree", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--schedule syncfree applies to --precond gs and ilu0, not mg"), (String) bad[2]);
        bad = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "ilu0", "--schedule", "multicolor", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("ILU(0)'s factors depend on the row order"), (String) bad[2]);
    }

    @Test
    void symmetricGsWithSyncFreeSweepsConverges() {
        Object[] r = CliRunner.run(new PcgCommand(), "--generate", "hpcg:8", "--precond", "gs", "--schedule", "syncfree", "--device", "jvm", "--verify");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("csr, sync-free (one launch per sweep, rows in natural order)"), (String) r[1]);
    }
}
