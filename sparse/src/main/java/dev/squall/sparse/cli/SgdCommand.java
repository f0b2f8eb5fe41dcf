package dev.squall.sparse.cli;

import dev.squall.sparse.bench.CopyBandwidth;
import dev.squall.sparse.sgd.Factors;
import dev.squall.sparse.sgd.Ratings;
import dev.squall.sparse.sgd.RatingsGenerator;
import dev.squall.sparse.sgd.RatingsReader;
import dev.squall.sparse.sgd.Schedule;
import dev.squall.sparse.sgd.ScheduleInspector;
import dev.squall.sparse.sgd.ScheduleKind;
import dev.squall.sparse.sgd.SgdTrainer;
import dev.squall.sparse.sgd.TrainingOptions;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code squall sgd}: train matrix-factorisation factors with SGD on a device; RMSE per epoch, updates/s against the bandwidth bound. */
@Command(name = "sgd", header = "Matrix factorisation by SGD with conflict-free schedules: RMSE per epoch, updates/s.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Trains user factors W (users x k) and item factors H (items x k) so that mean + W[u].H[i] predicts the",
                "ratings, by stochastic gradient descent on the device. The inspector builds a schedule from the ratings",
                "pattern (reported apart); the executor runs one launch per step with the data resident on the device.",
                "Schedules: blkdiag (block diagonals, deterministic), diag (element diagonals, deterministic, many",
                "launches), stratified (DSGD/LIBMF strata, deterministic), hogwild (lock-free batches, not reproducible",
                "on parallel devices). Reports train/test RMSE each epoch, updates per second of device time and their",
                "ratio to the bandwidth bound: copy bandwidth / bytes moved per update (16 k + 12 in fp32).", "",
                "Generated data (--generate): small, ml20m, netflix or USERSxITEMSxNNZ: a planted low-rank model plus",
                "Gaussian noise, so the test RMSE floor (the noise) is known and printed.", "",
                "Examples:",
                "  squall sgd --generate small --rank 2 --epochs 10 --verify",
                "  squall sgd --generate netflix --rank 128 --epochs 20 --schedule blkdiag --device cuda:0 --json",
                "  squall sgd --ratings ml-latest-small/ratings.csv --rank 32 --biases --save model --top 10 --user 1",
                "", "Exit codes: 0 ok, 1 --verify failed (test RMSE above 1.02 x the planted floor), 2 bad input, 3 device error."})
public final class SgdCommand implements Callable<Integer> {
    static final class Source {
        @Option(names = "--ratings", paramLabel = "FILE", description = "ratings: 'user item rating [timestamp]' text, .csv with a header, or .mtx") Path ratings;
        @Option(names = "--generate", paramLabel = "SPEC", description = "small, ml20m, netflix or USERSxITEMSxNNZ") String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--rank", paramLabel = "K", defaultValue = "128", description = "features per user and item, 1..512 (default 128)")
    int rank;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "20", description = "most epochs (default 20)")
    int epochs;

    @Option(names = "--patience", paramLabel = "N", defaultValue = "3", description = "stop after N epochs without test RMSE improving by 0.01%% (0: never; default 3)")
    int patience;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "blkdiag", description = "blkdiag, diag, stratified or hogwild (default blkdiag)")
    String schedule;

    @Option(names = "--lr", paramLabel = "ETA", defaultValue = "0.01", description = "initial learning rate (default 0.01)")
    double lr;

    @Option(names = "--lr-decay", paramLabel = "D", defaultValue = "0.05", description = "epoch e uses lr / (1 + D e) (default 0.05)")
    double decay;

    @Option(names = "--reg", paramLabel = "L", defaultValue = "0.05", description = "regularisation of the factors (default 0.05)")
    double reg;

    @Option(names = "--biases", description = "also learn user and item biases (regularised by --reg-bias)")
    boolean biases;

    @Option(names = "--reg-bias", paramLabel = "L", defaultValue = "0.01", description = "regularisation of the biases (default 0.01)")
    double regBias;

    @Option(names = "--test-fraction", paramLabel = "F", defaultValue = "0.1", description = "share of ratings held out for the test RMSE (default 0.1)")
    double testFraction;

    @Option(names = "--blocks", paramLabel = "B", description = "blocks per side for blkdiag and stratified (default: ~64 ratings a block on GPUs, 4 per core elsewhere)")
    Integer blocks;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1048576", description = "ratings per Hogwild launch (default 1048576)")
    int batch;

    @Option(names = "--kernel", paramLabel = "K", defaultValue = "auto",
            description = "tasks (a work-item per task), lanes (a 32-lane sub-group per task) or auto (lanes on GPUs; default)")
    String kernel;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of generation, split, schedules and initial factors (default 1)")
    long seed;

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--save", paramLabel = "DIR", description = "write the factors to DIR/factors.bin (and the id maps to DIR/users.txt, items.txt)")
    Path save;

    @Option(names = "--top", paramLabel = "N", description = "print the N best items the user (--user) has not rated")
    Integer top;

    @Option(names = "--user", paramLabel = "ID", description = "user for --top, by the id in the file (generated data: the index)")
    String user;

    @Option(names = "--verify", description = "generated data only: exit 1 unless the final test RMSE is within 2%% of the planted floor")
    boolean verify;

    @Option(names = "--json", description = "print one JSON object on stdout instead of text")
    boolean json;

    @Override
    public Integer call() throws IOException {
        ScheduleKind kind = ScheduleKind.parse(schedule);
        SgdTrainer.Style style = switch (kernel.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> SgdTrainer.Style.AUTO;
            case "tasks" -> SgdTrainer.Style.TASKS;
            case "lanes" -> SgdTrainer.Style.LANES;
            default -> throw new IllegalArgumentException("--kernel '" + kernel + "': expected auto, tasks or lanes");
        };
        TrainingOptions o = new TrainingOptions(rank, lr, decay, reg, regBias, biases, seed);
        if (epochs < 0) throw new IllegalArgumentException("--epochs " + epochs + " must be at least 0");
        if ((top == null) != (user == null)) throw new IllegalArgumentException("--top and --user go together");
        if (verify && source.generate == null) throw new IllegalArgumentException("--verify needs --generate (a known floor)");
        Device dev = Devices.select(device);

        long t0 = System.nanoTime();
        Ratings all;
        String name;
        RatingsGenerator.Spec spec = null;
        if (source.ratings != null) {
            name = source.ratings.toString();
            progress("reading " + name);
            all = RatingsReader.read(source.ratings);
        } else {
            spec = RatingsGenerator.parse(source.generate);
            name = spec.name();
            progress("generating " + name + " (" + spec.users() + " x " + spec.items() + ", ~" + spec.nnz() + " ratings, planted rank " + spec.rank() + ")");
            all = RatingsGenerator.generate(spec, seed);
        }
        double loadMs = ms(t0);
        if (all.emptyUsers() > 0 || all.emptyItems() > 0) {
            progress(all.emptyUsers() + " users and " + all.emptyItems() + " items have no ratings: their factors keep their initial values");
        }
        Ratings.Split split = all.split(testFraction, seed + 1);
        if (split.test().size() == 0) progress("the test set is empty (too few ratings): only training RMSE is reported");

        long t1 = System.nanoTime();
        int b = blocks != null ? blocks : ScheduleInspector.defaultBlocks(split.train(), dev.info().isGpu());
        Schedule s = ScheduleInspector.build(split.train(), kind, new ScheduleInspector.Options(b, batch, 1, seed + 2));
        double inspectMs = ms(t1);
        if (s.steps() > 100_000) progress(s.steps() + " steps: one launch each per epoch; blkdiag takes far fewer");

        progress("measuring copy bandwidth of " + dev.id());
        double copyGbs = CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
        long bytesPerUpdate = 16L * rank + 12 + (biases ? 16 : 0);
        double bound = copyGbs * 1e9 / bytesPerUpdate;

        List<SgdTrainer.EpochStats> history = new ArrayList<>();
        Factors factors;
        double setupMs;
        try (SgdTrainer t = new SgdTrainer(split.train(), split.test(), s, o, dev, style)) {
            long t2 = System.nanoTime();
            double[] r0 = t.rmse();                                   // builds, copies the data to the device
            setupMs = ms(t2);
            if (!json) {
                System.out.printf(Locale.ROOT, "data       %s: %d users x %d items, %d ratings (%d train, %d test), loaded in %.0f ms%n", name, all.users(), all.items(),
                        all.size(), split.train().size(), split.test().size(), loadMs);
                if (spec != null) System.out.printf(Locale.ROOT, "floor      test RMSE %.4f (planted noise)%n", spec.floor());
                System.out.printf(Locale.ROOT, "device     %s, rank %d, fp32, %s kernel%n", dev.id(), rank, t.lanes() ? "lanes (32 per task)" : "tasks (a work-item per task)");
                System.out.printf(Locale.ROOT, "schedule   %s: %s; widest step %d tasks; inspector %.1f ms%n", kind.cliName(), s.detail(), s.widestStep(), inspectMs);
                System.out.printf(Locale.ROOT, "epoch   0  train %.4f  test %.4f  (initial factors; build and copy %.0f ms)%n", r0[0], r0[1], setupMs);
            }
            int max = epochs;
            history = t.train(epochs, patience, st -> {
                if (!json) {
                    System.out.printf(Locale.ROOT, "epoch %3d  train %.4f  test %.4f  lr %.5f  %.2f ms  %.3g updates/s%n", st.epoch(), st.trainRmse(), st.testRmse(), st.lr(),
                            st.kernelMillis(), st.updatesPerSecond());
                }
                bar(st.epoch(), max, st.testRmse());
            });
            System.err.println();
            factors = t.factors();
        }
        double[] rates = history.stream().skip(history.size() > 1 ? 1 : 0).mapToDouble(SgdTrainer.EpochStats::updatesPerSecond).sorted().toArray();
        double rate = rates.length == 0 ? Double.NaN : rates[rates.length / 2];
        double finalTest = history.isEmpty() ? Double.NaN : history.getLast().testRmse();
        double trainMs = history.stream().mapToDouble(SgdTrainer.EpochStats::kernelMillis).sum();
        boolean ok = !verify || finalTest <= 1.02 * spec.floor();
        if (save != null) factors.save(save, all);
        List<Factors.Scored> best = List.of();
        int u = -1;
        if (top != null) {
            u = all.userIndex(user);
            if (u < 0) throw new IllegalArgumentException("--user " + user + ": no such user in " + name);
            best = factors.topN(u, top, all);
        }
        if (json) {
            StringBuilder ep = new StringBuilder("[");
            for (SgdTrainer.EpochStats st : history) {
                if (ep.length() > 1) ep.append(',');
                ep.append(String.format(Locale.ROOT, "{\"epoch\":%d,\"lr\":%.6g,\"train_rmse\":%.6f,\"test_rmse\":%s,\"kernel_ms\":%.4f,\"updates_per_s\":%.4g}",
                        st.epoch(), st.lr(), st.trainRmse(), num(st.testRmse()), st.kernelMillis(), st.updatesPerSecond()));
            }
            ep.append(']');
            StringBuilder tp = new StringBuilder("[");
            for (Factors.Scored sc : best) {
                if (tp.length() > 1) tp.append(',');
                tp.append(String.format(Locale.ROOT, "{\"item\":%s,\"score\":%.5f}", q(all.itemId(sc.item())), sc.score()));
            }
            tp.append(']');
            System.out.println(String.format(Locale.ROOT, "{\"data\":%s,\"users\":%d,\"items\":%d,\"ratings\":%d,\"train\":%d,\"test\":%d,\"floor\":%s,\"device\":%s,"
                            + "\"rank\":%d,\"schedule\":%s,\"detail\":%s,\"kernel\":%s,\"steps\":%d,\"inspector_ms\":%.3f,\"load_ms\":%.3f,\"setup_ms\":%.3f,"
                            + "\"epochs\":%s,\"final_test_rmse\":%s,\"train_ms\":%.3f,\"median_updates_per_s\":%s,\"bytes_per_update\":%d,\"copy_gbs\":%.3f,"
                            + "\"bound_updates_per_s\":%.4g,\"ratio_to_bound\":%s,\"verified\":%s,\"top\":%s}",
                    q(name), all.users(), all.items(), all.size(), split.train().size(), split.test().size(), spec == null ? "null" : num(spec.floor()),
                    q(dev.id()), rank, q(kind.cliName()), q(s.detail()), q(style.name().toLowerCase(Locale.ROOT)), s.steps(), inspectMs, loadMs, setupMs,
                    ep, num(finalTest), trainMs, num(rate), bytesPerUpdate, copyGbs, bound, num(rate / bound), verify ? Boolean.toString(ok) : "null", tp));
        } else {
            System.out.printf(Locale.ROOT, "rate       %.3g updates/s (median epoch), %d bytes an update: %.3g GB/s, %.0f%% of the bound %.3g updates/s (copy %.1f GB/s)%n",
                    rate, bytesPerUpdate, rate * bytesPerUpdate / 1e9, 100 * rate / bound, bound, copyGbs);
            System.out.printf(Locale.ROOT, "trained    %d epochs, %.1f ms of device time%s%n", history.size(), trainMs,
                    spec == null || history.isEmpty() ? "" : String.format(Locale.ROOT, ", final test RMSE %.4f = %.3f x floor", finalTest, finalTest / spec.floor()));
            if (save != null) System.out.println("saved      " + save.resolve("factors.bin"));
            for (int r = 0; r < best.size(); r++) {
                System.out.printf(Locale.ROOT, "top %-2d     item %s  predicted %.3f%n", r + 1, all.itemId(best.get(r).item()), best.get(r).score());
            }
            if (verify) System.out.println("verify     " + (ok ? "ok" : "FAILED: test RMSE above 1.02 x the planted floor"));
        }
        return ok ? 0 : 1;
    }

    private static void bar(int epoch, int max, double test) {
        int width = 30, done = max == 0 ? width : (int) ((long) width * epoch / max);
        System.err.print("\rsgd: [" + "#".repeat(done) + " ".repeat(width - done) + "] epoch " + epoch + "/" + max
                + (Double.isNaN(test) ? "" : String.format(Locale.ROOT, "  test %.4f", test)));
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }

    private void progress(String s) {
        System.err.println("sgd: " + s);
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
