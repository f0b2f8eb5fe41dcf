package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.sgd.Factors;
import dev.squall.sparse.sgd.Ratings;
import dev.squall.sparse.sgd.ReachableFloor;
import dev.squall.sparse.sgd.Schedule;
import dev.squall.sparse.sgd.RatingsGenerator;
import dev.squall.sparse.testing.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code squall sgd}: the reported RMSE is the saved factors' RMSE; bad input exits 2 with what is wrong. */
class SgdCommandTest {
    @TempDir
    Path dir;

    private static Object[] run(String... args) {
        return CliRunner.run(new SgdCommand(), args);
    }

    private static double field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":([-0-9.eE+]+)").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void reportsTheRmseOfTheFactorsItSaves() throws Exception {
        Path model = dir.resolve("model");
        Object[] r = run("--generate", "300x200x8000", "--rank", "4", "--epochs", "4", "--patience", "0", "--device", "jvm", "--seed", "5",
                "--save", model.toString(), "--top", "3", "--user", "7", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        // the same data and split, rebuilt here from the seeds the command documents (generation: seed, split: seed + 1)
        Ratings all = RatingsGenerator.generate(RatingsGenerator.parse("300x200x8000"), 5);
        Ratings.Split split = all.split(0.1, 6);
        Factors f = Factors.load(model);
        assertEquals(f.rmse(split.test()), field(json, "final_test_rmse"), 1e-5);
        assertEquals(split.train().size(), (int) field(json, "train"));
        assertEquals(16 * 4 + 12, (int) field(json, "bytes_per_update"));
        // the reachable RMSE, recomputed here from the planted item factors (all 300 users are measured)
        float[][] planted = new float[2][];
        RatingsGenerator.Spec spec = RatingsGenerator.parse("300x200x8000");
        RatingsGenerator.generate(spec, 5, planted);
        assertEquals(ReachableFloor.rmse(spec, planted[1], split.train(), split.test(), 300, 1), field(json, "reachable_rmse"), 1e-9);
        // span: the schedule's critical path, at least the largest row's ratings
        assertTrue(field(json, "span") >= field(json, "largest_row"), json);
        assertEquals(Schedule.largestRowDegree(split.train()), (int) field(json, "largest_row"));
        double rate = field(json, "median_updates_per_s"), bound = field(json, "bound_updates_per_s");
        assertEquals(rate / bound, field(json, "ratio_to_bound"), 1e-3 * rate / bound);
        // top 3 of user 7: the first is the best unseen item by the host's prediction
        int best = f.topN(7, 1, all).getFirst().item();
        assertTrue(json.contains("\"top\":[{\"item\":\"" + best + "\""), json);
    }

    @Test
    void textOutputAndVerify() {
        // the default learning rate, decay and regularisation reach the reachable floor within 2% in 12 epochs
        Object[] r = run("--generate", "small", "--rank", "2", "--epochs", "12", "--patience", "0",
                "--schedule", "stratified", "--blocks", "8", "--device", "jvm", "--verify");
        String out = (String) r[1];
        assertEquals(0, r[0], out + r[2]);
        assertTrue(out.contains("floor      test RMSE 0.5000"), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("reachable  test RMSE (\\d\\.\\d+)").matcher(out);
        assertTrue(m.find(), out);
        double reachable = Double.parseDouble(m.group(1));
        assertTrue(reachable > 0.5 && reachable < 0.51, "reachable " + reachable + " on small (dense: just above the noise)");
        assertTrue(out.contains("verify     ok"), out);
        assertTrue(out.contains("epoch  12  train"), out);
        assertTrue(out.contains("span       "), out);
        // one epoch is not enough: --verify fails with exit code 1 against the reachable floor
        r = run("--generate", "small", "--rank", "2", "--epochs", "1", "--device", "jvm", "--verify");
        assertEquals(1, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("FAILED: test RMSE above 1.02 x the reachable floor"), (String) r[1]);
    }

    @Test
    void targetRmseStopsAtTheFirstEpochBelowIt() {
        // a 12-epoch run without a target gives the per-epoch test RMSE; with --target-rmse 1.02x the same run (same
        // seeds) must stop at the first epoch at or below 1.02 x reachable and report it with the summed device time
        Object[] full = run("--generate", "small", "--rank", "2", "--epochs", "12", "--patience", "0", "--schedule", "blkdiag", "--blocks", "8",
                "--device", "jvm", "--json");
        assertEquals(0, full[0], (String) full[2]);
        String fj = (String) full[1];
        double reachable = field(fj, "reachable_rmse");
        Matcher m = Pattern.compile("\\{\"epoch\":(\\d+)[^}]*\"test_rmse\":([-0-9.eE+]+)").matcher(fj);
        int first = -1;
        while (m.find()) {
            if (Double.parseDouble(m.group(2)) <= 1.02 * reachable) {
                first = Integer.parseInt(m.group(1));
                break;
            }
        }
        assertTrue(first > 1 && first < 12, "first epoch within 2% of reachable: " + first + " in " + fj);
        Object[] r = run("--generate", "small", "--rank", "2", "--epochs", "12", "--patience", "0", "--schedule", "blkdiag", "--blocks", "8",
                "--device", "jvm", "--json", "--target-rmse", "1.02x");
        assertEquals(0, r[0], (String) r[2]);
        String j = (String) r[1];
        assertEquals(first, (int) field(j, "epochs_to_target"), j);
        assertEquals(1.02 * reachable, field(j, "target_rmse"), 1e-12);
        assertEquals(field(j, "train_ms"), field(j, "ms_to_target"), 1e-9, "training stopped at the target");
        assertEquals(first, Pattern.compile("\\{\"epoch\":").matcher(j).results().count(), "epochs run");
        // an absolute target that cannot be met: all epochs run, nothing reached
        r = run("--generate", "small", "--rank", "2", "--epochs", "2", "--device", "jvm", "--target-rmse", "0.1");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("target     test RMSE 0.1000 not reached"), (String) r[1]);
        r = run("--generate", "small", "--device", "jvm", "--target-rmse", "fast");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--target-rmse 'fast': expected a number or Fx"), (String) r[2]);
    }

    @Test
    void aScheduleListTrainsEachOnTheSameDataAsASingleRunWould() {
        // blkdiag is deterministic: its entry of a list gives the final RMSE of a run of its own (same data, split,
        // initial factors); each entry is one JSON line with its schedule and the kernel that ran
        String[] common = {"--generate", "300x200x8000", "--rank", "4", "--epochs", "3", "--patience", "0", "--blocks", "6", "--device", "jvm", "--json"};
        Object[] list = run(concat(common, "--schedule", "hogwild,blkdiag:lanes,stratified@jvm"));
        assertEquals(0, list[0], (String) list[2]);
        String[] lines = ((String) list[1]).strip().split("\n");
        assertEquals(3, lines.length, (String) list[1]);
        assertTrue(lines[0].contains("\"schedule\":\"hogwild\"") && lines[0].contains("\"kernel\":\"tasks\""), lines[0]);
        assertTrue(lines[1].contains("\"schedule\":\"blkdiag\"") && lines[1].contains("\"kernel\":\"lanes\""), lines[1]);
        assertTrue(lines[2].contains("\"schedule\":\"stratified\"") && lines[2].contains("\"kernel\":\"tasks\"")
                && lines[2].contains("\"device\":\"jvm\""), lines[2]);
        Object[] one = run(concat(common, "--schedule", "blkdiag", "--kernel", "lanes"));
        assertEquals(0, one[0], (String) one[2]);
        assertEquals(field(((String) one[1]).strip(), "final_test_rmse"), field(lines[1], "final_test_rmse"), 0.0);
        Object[] bad = run("--generate", "small", "--schedule", "blkdiag,", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--schedule 'blkdiag,': an empty entry"), (String) bad[2]);
        bad = run("--generate", "small", "--schedule", "blkdiag:fastest", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--kernel 'fastest'"), (String) bad[2]);
        bad = run("--generate", "small", "--schedule", "blkdiag@", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("no device after '@' in 'blkdiag@'"), (String) bad[2]);
        bad = run("--generate", "300x200x8000", "--rank", "4", "--epochs", "1", "--schedule", "blkdiag@nosuch:0", "--device", "jvm");
        assertEquals(3, bad[0], (String) bad[2]);
        assertTrue(((String) bad[2]).contains("nosuch:0"), (String) bad[2]);
        bad = run("--generate", "small", "--schedule", "blkdiag,hogwild", "--save", dir.resolve("m").toString(), "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--save and --top take one schedule, not 2"), (String) bad[2]);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void badInputSaysWhatIsWrong() throws Exception {
        Path nan = dir.resolve("nan.txt");
        Files.writeString(nan, "1 1 4\n1 2 NaN\n");
        Object[] r = run("--ratings", nan.toString(), "--device", "jvm");
        assertEquals(2, r[0]);
        assertEquals(nan + ":2: rating 'NaN' is not a finite number", r[2]);

        Path few = dir.resolve("few.txt");
        Files.writeString(few, "1 1 4\n2 2 3\n3 1 5\n4 2 1\n");
        r = run("--ratings", few.toString(), "--device", "jvm", "--rank", "8");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("rank 8 is larger than the number of items (2)"), (String) r[2]);

        r = run("--generate", "small", "--schedule", "zigzag", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("expected blkdiag, diag, stratified or hogwild"), (String) r[2]);

        r = run("--generate", "small", "--storage", "fp8", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--storage 'fp8': expected fp32 or fp16"), (String) r[2]);
        r = run("--generate", "small", "--storage", "fp16", "--kernel", "prefetch", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("with --storage fp16 use --kernel lanes or tasks"), (String) r[2]);

        r = run("--generate", "small", "--schedule", "blkdiag", "--kernel", "warps", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--kernel warps races ratings against each other (Hogwild); for blkdiag use --kernel prefetch, lanes or tasks"),
                (String) r[2]);
        r = run("--generate", "small", "--kernel", "fastest", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--kernel 'fastest': expected auto, tasks, lanes, prefetch, pipeline or warps"), (String) r[2]);

        r = run("--ratings", few.toString(), "--device", "jvm", "--rank", "1", "--verify");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--verify needs --generate"), (String) r[2]);
    }
}
