package dev.squall.hmatrix.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;
import dev.squall.cli.Launcher;
import picocli.CommandLine;

/** {@code squall ksum} end to end on the JVM and on OpenCL: the JSON fields, the verification and bad input. */
class KsumCommandTest {
    /** Runs the command as the squall launcher does (bad input -> 2); returns {exit code, stdout, error message}. */
    static Object[] run(String... args) {
        PrintStream old = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        try {
            int code = Launcher.execute(Launcher.configure(new CommandLine(new KsumCommand())), args);
            // the error line "ksum: MESSAGE" of the launcher, or nothing
            String line = err.toString().lines().filter(l -> l.startsWith("ksum: ")).reduce((x, y) -> y).orElse("");
            return new Object[] {code, out.toString(), line.isEmpty() ? "" : line.substring(6)};
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
    }

    static String text(Object[] r, String field) {
        String json = (String) r[1];
        int i = json.indexOf("\"" + field + "\":") + field.length() + 3;
        int j = i;
        while (j < json.length() && ",}".indexOf(json.charAt(j)) < 0) j++;
        return json.substring(i, j);
    }

    static double field(Object[] r, String name) {
        return Double.parseDouble(text(r, name));
    }

    @Test
    void denseSumVerifiesInBothPrecisions() {
        for (String p : new String[] {"fp32", "fp64"}) {
            Object[] r = run("--n", "3000", "--m", "1200", "--kernel", "gauss:0.1", "--precision", p, "--device", "jvm", "--repeat", "1",
                    "--verify", "--sample", "40", "--json");
            assertEquals(0, r[0], (String) r[2]);
            assertEquals("\"dense\"", text(r, "method"));
            assertEquals(3000 * 1200, field(r, "pairs"));
            assertEquals(1.0, field(r, "kept_fraction"));
            assertTrue(field(r, "rel_error") < (p.equals("fp32") ? 1e-5 : 1e-13), (String) r[1]);
            assertTrue(field(r, "pairs_per_s") > 0, (String) r[1]);
        }
    }

    @Test
    void blockSparseReportsKeptFractionAndHoldsItsBound() {
        Object[] r = run("--n", "4000", "--dim", "2", "--kernel", "gauss:0.02", "--block-sparse", "--cell", "0.05", "--cutoff", "0.1",
                "--precision", "fp64", "--points", "spiral", "--device", "opencl:0:0", "--verify", "--sample", "60", "--json");
        assertEquals(0, r[0], (String) r[2]);
        assertEquals("true", text(r, "bound_held"), (String) r[1]);
        double kept = field(r, "kept_fraction");
        assertTrue(kept > 0 && kept < 0.5, (String) r[1]);
        assertTrue(field(r, "target_clusters") > 10 && field(r, "max_dropped_bound") > 0, (String) r[1]);
    }

    @Test
    void blockSparseRunsOnTheDeviceUnlessTheGridIsTooFine() {
        // 50^3 cells: the device pipeline; 2000^3 cells: the host's clustering; both verified against the exact sum
        String[][] cases = {{"0.02", "\"reason\":\"asked for; clustering, ranges and sum on the device"},
                {"0.0005", "\"reason\":\"asked for; host clustering"}};
        for (String[] c : cases) {
            Object[] r = run("--n", "2500", "--m", "1700", "--kernel", "gauss:0.02", "--block-sparse", "--cell", c[0], "--cutoff", "0.08",
                    "--precision", "fp64", "--device", "opencl:0:0", "--verify", "--sample", "50", "--json");
            assertEquals(0, r[0], (String) r[2]);
            assertTrue(((String) r[1]).contains(c[1]), (String) r[1]);
            assertEquals("true", text(r, "bound_held"), (String) r[1]);
            double kept = field(r, "kept_fraction");
            assertTrue(kept > 0 && kept < 0.5, (String) r[1]);
        }
    }

    @Test
    void blockSparseWithRepeatsReportsTheWarmPhases() {
        Object[] r = run("--n", "3000", "--kernel", "gauss:0.02", "--block-sparse", "--cell", "0.05", "--cutoff", "0.1", "--repeat", "1",
                "--precision", "fp32", "--device", "jvm", "--verify", "--sample", "30", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = (String) r[1];
        int at = json.indexOf("\"warm_phases\":{");
        assertTrue(at > 0, json);
        String warm = json.substring(at, json.indexOf('}', at));
        double[] phase = new double[5];
        String[] names = {"staging_ms", "clustering_ms", "ranges_ms", "sum_ms", "total_ms"};
        for (int f = 0; f < names.length; f++) {
            int i = warm.indexOf("\"" + names[f] + "\":") + names[f].length() + 3, j = i;
            while (j < warm.length() && ",}".indexOf(warm.charAt(j)) < 0) j++;
            phase[f] = Double.parseDouble(warm.substring(i, j));
            assertTrue(phase[f] >= 0, names[f] + " in " + warm);
        }
        assertEquals(phase[4], phase[0] + phase[1] + phase[2] + phase[3], 1e-9 * phase[4], "the phases make up the total: " + warm);
        // the same pass's steps: consecutive laps of the wall clock, so they add up to its total; launch sets carry device times
        int s0 = json.indexOf("\"warm_steps\":["), s1 = json.indexOf(']', s0);
        assertTrue(s0 > 0, json);
        String steps = json.substring(s0, s1);
        double sum = 0;
        java.util.regex.Matcher ms = java.util.regex.Pattern.compile("\"ms\":([-0-9.eE]+)").matcher(steps);
        int count = 0;
        while (ms.find()) {
            sum += Double.parseDouble(ms.group(1));
            count++;
        }
        assertTrue(count >= 5, steps);
        assertEquals(phase[4], sum, 1e-6 * phase[4], steps);
        assertTrue(steps.contains("\"name\":\"clusters\"") && steps.matches("(?s).*\"kernel_ms\":[0-9].*"), steps);
    }

    @Test
    void bothExponentFormsVerifyAndOthersAreBadInput() {
        String[] forms = {"direct", "expanded"};
        for (int f = 0; f < 2; f++) {
            Object[] r = run("--n", "2000", "--kernel", "gauss:0.1", "--exponent", forms[f], "--precision", "fp32", "--device", "jvm",
                    "--repeat", "1", "--verify", "--sample", "30", "--json");
            assertEquals(0, r[0], (String) r[2]);
            assertEquals("\"" + forms[f] + "\"", text(r, "exponent"));
            assertTrue(field(r, "rel_error") < 1e-5, (String) r[1]);
        }
        Object[] r = run("--n", "100", "--exponent", "fast", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--exponent must be expanded or direct, got 'fast'"), (String) r[2]);
    }

    @Test
    void toleranceSaysWhatItChose() {
        Object[] r = run("--n", "3000", "--dim", "2", "--kernel", "gauss:0.005", "--tol", "1e-6", "--precision", "fp64", "--device", "jvm",
                "--verify", "--sample", "50", "--json");
        assertEquals(0, r[0], (String) r[2]);
        assertEquals("\"block-sparse\"", text(r, "method"), (String) r[1]);
        assertTrue(field(r, "rel_error") <= 1e-6, (String) r[1]);
        assertTrue(((String) r[1]).contains("every row's bound on the dropped terms is within eps/2"), (String) r[1]);
    }

    @Test
    void badInputIsNamed() {
        Object[] r = run("--n", "100", "--dim", "9", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("dimension must be 1 to 8"), (String) r[2]);
        r = run("--n", "100", "--block-sparse", "--tol", "1e-6", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("not both"), (String) r[2]);
        r = run("--n", "100", "--kernel", "sinc:0.1", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("cauchy"), (String) r[2]);
    }
}
