package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.testing.CliRunner;
import dev.squall.sparse.testing.TestData;
import org.junit.jupiter.api.Test;

class GsCommandTest {
    @Test
    void levelSetsOfAStencilVerifyAndReportJson() {
        Object[] r = CliRunner.run(new GsCommand(), "--generate", "27pt:9x7x5", "--schedule", "levelset", "--sweeps", "3", "--repeat", "1",
                "--device", "jvm", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = (String) r[1];
        // levels x + 2y + 4z: 8 + 12 + 16 + 1
        assertTrue(json.contains("\"schedule\":\"forward levels\"") && json.contains("\"groups\":37,") && json.contains("\"verified\":true"), json);
        assertTrue(json.contains("\"inspector_spmv_equivalents\":") && json.contains("\"ratio_to_copy\":"), json);
    }

    @Test
    void coloursInTheEllLayoutVerify() {
        Object[] r = CliRunner.run(new GsCommand(), "--generate", "hpcg:10", "--schedule", "multicolor", "--layout", "ell", "--chain-max", "0", "--sweeps", "2",
                "--repeat", "1", "--device", "jvm", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = (String) r[1];
        assertTrue(json.contains("\"schedule\":\"colours\"") && json.contains("\"groups\":8,") && json.contains("\"layout\":\"ell (requested)\"")
                && json.contains("\"launches_per_sweep\":16,") && json.contains("\"verified\":true"), json);
    }

    @Test
    void autoPicksColoursForNarrowLevelsAndSaysWhy() {
        Object[] r = CliRunner.run(new GsCommand(), "--matrix", TestData.file("ani4.mtx").toString(), "--sweeps", "2", "--repeat", "1",
                "--device", "jvm", "--verify");
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("schedule   colours:") && out.contains("auto: colours:") && out.contains("verify     relative error"), out);
    }

    @Test
    void zeroDiagonalIsBadInputNamingTheRow() {
        Object[] r = CliRunner.run(new GsCommand(), "--matrix", TestData.file("mycielskian6.mtx").toString(), "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).startsWith("row 0 has no diagonal entry"), (String) r[2]);
    }

    @Test
    void syncFreeSweepsVerifyInOneLaunchEach() throws Exception {
        for (String dir : new String[] {"forward", "backward", "symmetric"}) {
            Object[] r = CliRunner.run(new GsCommand(), "--generate", "27pt:9x7x5", "--schedule", "syncfree", "--direction", dir, "--sweeps", "2",
                    "--repeat", "1", "--device", "jvm", "--verify", "--json");
            assertEquals(0, r[0], (String) r[2]);
            com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree((String) r[1]);
            assertEquals(dir.equals("symmetric") ? 6 : 3, j.get("launches_per_sweep").asInt(), j.toString());
            assertTrue(j.get("reason").asText().startsWith("sync-free requested") && j.get("ok").asBoolean(), j.toString());
            assertTrue(j.get("rel_error").asDouble() <= 1e-10, j.toString());
        }
    }

    @Test
    void triangularSolvesOfTheLowerTriangleInNaturalAndColourOrderVerify() throws Exception {
        for (String ro : new String[] {"none", "multicolor"}) {
            for (String sched : new String[] {"levelset", "syncfree", "syncfree-lanes", "syncfree-lanes-levels"}) {
                Object[] r = CliRunner.run(new GsCommand(), "--generate", "hpcg:6", "--triangle", "lower", "--reorder", ro, "--schedule", sched,
                        "--direction", "forward", "--sweeps", "2", "--repeat", "1", "--device", "jvm", "--verify", "--json");
                assertEquals(0, r[0], (String) r[2]);
                com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree((String) r[1]);
                assertTrue(j.get("matrix").asText().endsWith(ro.equals("none") ? "lower triangle" : "multicolour order, lower triangle"), j.toString());
                // hpcg:6 has 216 rows; its lower triangle 14 entries a row inside, fewer at the faces
                assertTrue(j.get("nnz").asLong() < 216 * 14 && j.get("nnz").asLong() > 216 * 5, j.toString());
                // the per-row solve clears its flags in a launch of its own; the lanes-sharing solve and the level walk need none
                if (sched.startsWith("syncfree")) assertEquals(sched.equals("syncfree") ? 2 : 1, j.get("launches_per_sweep").asInt(), j.toString());
                // 216 rows: the level-order solve walks the levels in one work-group, values in local memory
                if (sched.equals("syncfree-lanes-levels")) assertTrue(j.get("layout").asText().contains("walking the levels, values in local memory"), j.toString());
                // 8 lanes a row: the power of two at least half the mean row length (2156 entries on 216 rows in either order)
                if (sched.equals("syncfree-lanes")) assertTrue(j.get("layout").asText().contains("8 lanes a row"), j.toString());
                if (ro.equals("multicolor") && sched.equals("levelset")) assertEquals(8, j.get("groups").asInt(), j.toString());
                assertTrue(j.get("ok").asBoolean() && j.get("relative_residual").asDouble() < 1e-12, j.toString());
            }
        }
        Object[] bad = CliRunner.run(new GsCommand(), "--generate", "hpcg:4", "--triangle", "middle", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--triangle must be none, lower or upper, got 'middle'"), (String) bad[2]);
    }
}
