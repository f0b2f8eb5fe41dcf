package dev.squall.sparse.cli;

import dev.squall.sparse.limits.CopyBandwidth;
import dev.squall.sparse.sgd.Factors;
import dev.squall.sparse.sgd.Ratings;
import dev.squall.sparse.sgd.RatingsGenerator;
import dev.squall.sparse.sgd.RatingsReader;
import dev.squall.sparse.sgd.ReachableFloor;
import dev.squall.sparse.sgd.Schedule;
import dev.squall.sparse.sgd.ScheduleInspector;
import dev.squall.sparse.sgd.ScheduleKind;
import dev.squall.sparse.sgd.SgdTrainer;
import dev.squall.sparse.sgd.TrainingOptions;
import dev.squall.sparse.sgd.kernels.SgdKernels;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.Progress;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.SquallSubcommand;

/** {@code squall sgd}: train matrix-factorisation factors with SGD on a device; RMSE per epoch, updates/s against the bandwidth bound. */
@Command(name = "sgd", header = "Matrix factorisation by SGD with conflict-free schedules: RMSE per epoch, updates/s.",
        sortOptions = false,
        description = {"Trains user factors W (users x k) and item factors H (items x k) so that mean + W[u].H[i] predicts the ratings,"
                + " by stochastic gradient descent on the device (fp32). The inspector builds a schedule from the ratings pattern (reported"
                + " apart); the executor runs one launch per step with the data resident on the device. Schedules: blkdiag (block"
                + " diagonals, deterministic), diag (element diagonals, deterministic, many launches), stratified (DSGD/LIBMF strata,"
                + " deterministic), hogwild (lock-free batches, not reproducible on parallel devices). Reports train/test RMSE each epoch,"
                + " updates per second of device time and their ratio to the bandwidth bound: copy bandwidth / bytes moved per update"
                + " (16 k + 12 in fp32).",
                "",
                "Generated data (--generate): small, ml20m, netflix or USERSxITEMSxNNZ: a planted low-rank model plus Gaussian noise, so the"
                + " test RMSE floor (the noise) is known and printed. With k features learnt from n ratings a user's factors"
                + " carry estimation error, so the reachable test RMSE is above the noise: it is estimated on the host (each user's"
                + " factors by Bayes ridge regression on the planted item factors) and printed. --verify (generated data only) fails"
                + " when the final test RMSE is above 1.02 x the reachable RMSE.",
                "",
                "Examples:",
                "  squall sgd --generate small --rank 2 --epochs 10 --verify",
                "  squall sgd --generate 2000x500x40000 --rank 8 --epochs 5 --biases --save /tmp/squall-sgd-model --top 5 --user 1 --device jvm",
                "  squall sgd --generate netflix --rank 128 --epochs 20 --schedule blkdiag --device cuda:0 --json   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 1, precisions = {"fp32"})
public final class SgdCommand implements SquallSubcommand {
    /** Users measured by the reachable-floor estimate (a seeded sample above this). */
    static final int REACHABLE_USERS = 20_000;

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

    @Option(names = "--storage", paramLabel = "S", defaultValue = "fp32",
            description = "how W and H are kept on the device: fp32 or fp16 (IEEE half, half the bytes an update; arithmetic in fp32; default fp32)")
    String storage;

    @Option(names = "--target-rmse", paramLabel = "T",
            description = "stop after the first epoch with test RMSE <= T; 'Fx' means F x the reachable RMSE (generated data), e.g. 1.01x")
    String targetRmse;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "blkdiag",
            description = "blkdiag, diag, stratified or hogwild (default blkdiag); a comma list trains each in turn on the same data and"
                    + " initial factors (one result each), an entry SCHEDULE[:KERNEL][@DEVICE] overriding --kernel and --device, e.g. hogwild,blkdiag,blkdiag:prefetch,blkdiag@jvm")
    String schedule;

    @Option(names = "--lr", paramLabel = "ETA", defaultValue = "0.05", description = "initial learning rate (default 0.05)")
    double lr;

    @Option(names = "--lr-decay", paramLabel = "D", defaultValue = "0.5", description = "epoch e uses lr / (1 + D e) (default 0.5)")
    double decay;

    @Option(names = "--reg", paramLabel = "L", defaultValue = "0.03", description = "regularisation of the factors (default 0.03)")
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
            description = "tasks (a work-item per task), lanes (a 32-lane sub-group per task), prefetch (lanes keeping the item row and"
                    + " prefetching the next ratings' rows; conflict-free schedules), pipeline (lanes with the rows of the next 8 ratings in"
                    + " registers; conflict-free, fp32, rank <= 128), warps (8 sub-groups a work-group, a rating each; hogwild) or auto"
                    + " (tasks on CPUs; on GPUs pipeline, prefetch above rank 128, warps for hogwild; default)")
    String kernel;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of generation, split, schedules and initial factors (default 1)")
    long seed;

    @Option(names = "--save", paramLabel = "DIR", description = "write the factors to DIR/factors.bin (and the id maps to DIR/users.txt, items.txt)")
    Path save;

    @Option(names = "--top", paramLabel = "N", description = "print the N best items the user (--user) has not rated")
    Integer top;

    @Option(names = "--user", paramLabel = "ID", description = "user for --top, by the id in the file (generated data: the index)")
    String user;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the data and its sizes, the planted floor and the
     * reachable test RMSE ({@link ReachableFloor}; both null for a file), device, precision (fp32), rank, schedule, its detail, the kernel that ran, steps, the span
     * (critical path in dependent updates, {@link Schedule#span}) and the largest row's ratings (its lower bound), inspector/load/setup times (ms),
     * the epochs ({@link Epoch}), the final test RMSE, training device time (ms), median updates/s, bytes per update,
     * copy bandwidth, the bound in updates/s and the ratio to it, whether --verify ran, {@code ok}, the --top items, and the
     * --target-rmse (null without one), the first epoch at or below it and the training device time to it (null when not reached).
     */
    public record Result(String command, String data, int users, int items, long ratings, long train, long test, Double floor, Double reachableRmse, String device,
                         String precision, int rank, String schedule, String detail, String kernel, long steps, long span, int largestRow, double inspectorMs, double loadMs,
                         double setupMs, List<Epoch> epochs, double finalTestRmse, double trainMs, double medianUpdatesPerS, long bytesPerUpdate,
                         double copyGbs, double boundUpdatesPerS, double ratioToBound, boolean verified, boolean ok, List<Top> top,
                         Double targetRmse, Integer epochsToTarget, Double msToTarget) {
    }

    /** One epoch: its learning rate, train and test RMSE (test null when there is no test set), device time, updates/s. */
    public record Epoch(int epoch, double lr, double trainRmse, double testRmse, double kernelMs, double updatesPerS) {
    }

    /** A recommended item and its predicted rating. */
    public record Top(String item, double score) {
    }

    @Override
    public Integer call() throws IOException {
        List<Entry> entries = entries(schedule, style(kernel));
        SgdTrainer.Storage store = switch (storage.strip().toLowerCase(Locale.ROOT)) {
            case "fp32" -> SgdTrainer.Storage.FP32;
            case "fp16" -> SgdTrainer.Storage.FP16;
            default -> throw new IllegalArgumentException("--storage '" + storage + "': expected fp32 or fp16");
        };
        TrainingOptions o = new TrainingOptions(rank, lr, decay, reg, regBias, biases, seed);
        if (epochs < 0) throw new IllegalArgumentException("--epochs " + epochs + " must be at least 0");
        if ((top == null) != (user == null)) throw new IllegalArgumentException("--top and --user go together");
        if (entries.size() > 1 && (save != null || top != null)) {
            throw new IllegalArgumentException("--save and --top take one schedule, not " + entries.size() + " (--schedule " + schedule + ")");
        }
        boolean verify = run.verify(), json = run.json();
        if (verify && source.generate == null) throw new IllegalArgumentException("--verify needs --generate (a known floor)");
        Device runDevice = run.device();

        long t0 = System.nanoTime();
        Ratings all;
        String name;
        RatingsGenerator.Spec spec = null;
        float[][] planted = new float[2][];
        if (source.ratings != null) {
            name = source.ratings.toString();
            progress("reading " + name);
            all = RatingsReader.read(source.ratings);
        } else {
            spec = RatingsGenerator.parse(source.generate);
            name = spec.name();
            progress("generating " + name + " (" + spec.users() + " x " + spec.items() + ", ~" + spec.nnz() + " ratings, planted rank " + spec.rank() + ")");
            all = RatingsGenerator.generate(spec, seed, planted);
        }
        double loadMs = ms(t0);
        if (all.emptyUsers() > 0 || all.emptyItems() > 0) {
            progress(all.emptyUsers() + " users and " + all.emptyItems() + " items have no ratings: their factors keep their initial values");
        }
        Ratings.Split split = all.split(testFraction, seed + 1);
        if (split.test().size() == 0) progress("the test set is empty (too few ratings): only training RMSE is reported");
        Double reachable = null;
        double reachableMs = 0;
        if (spec != null && split.test().size() > 0) {
            long tr = System.nanoTime();
            reachable = ReachableFloor.rmse(spec, planted[1], split.train(), split.test(), REACHABLE_USERS, seed + 3);
            reachableMs = ms(tr);
        }

        double target = 0;
        if (targetRmse != null) {
            String tt = targetRmse.strip().toLowerCase(Locale.ROOT);
            boolean rel = tt.endsWith("x");
            try {
                target = Double.parseDouble(rel ? tt.substring(0, tt.length() - 1) : tt);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--target-rmse '" + targetRmse + "': expected a number or Fx (F x the reachable RMSE)");
            }
            if (!(target > 0) || !Double.isFinite(target)) throw new IllegalArgumentException("--target-rmse '" + targetRmse + "' must be positive");
            if (rel) {
                if (reachable == null) throw new IllegalArgumentException("--target-rmse " + targetRmse + " needs --generate and a test set (the reachable RMSE)");
                target *= reachable;
            }
        }
        long bytesPerUpdate = (store == SgdTrainer.Storage.FP16 ? 8L : 16L) * rank + 12 + (biases ? 16 : 0);
        java.util.Map<String, Double> copyByDevice = new java.util.HashMap<>();
        boolean allOk = true;
        for (Entry en : entries) {
            ScheduleKind kind = en.kind();
            SgdTrainer.Style style = en.style();
            Device dev = en.device() == null ? runDevice : Devices.get(en.device());
            Double measured = copyByDevice.get(dev.id());
            if (measured == null) {
                progress("measuring copy bandwidth of " + dev.id());
                measured = CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
                copyByDevice.put(dev.id(), measured);
            }
            double copyGbs = measured;
            double bound = copyGbs * 1e9 / bytesPerUpdate;
            long t1 = System.nanoTime();
            int b = blocks != null ? blocks : ScheduleInspector.defaultBlocks(split.train(), dev.info().isGpu());
            Schedule s = ScheduleInspector.build(split.train(), kind, new ScheduleInspector.Options(b, batch, 1, seed + 2));
            double inspectMs = ms(t1);
            long span = s.span();
            int rowBound = Schedule.largestRowDegree(split.train());
            if (s.steps() > 100_000) progress(s.steps() + " steps: one launch each per epoch; blkdiag takes far fewer");
            if (entries.size() > 1) progress("training " + kind.cliName() + " (" + en.style().name().toLowerCase(Locale.ROOT) + " kernel) on " + dev.id());
            List<SgdTrainer.EpochStats> history = new ArrayList<>();
            Factors factors;
            double setupMs;
            SgdTrainer.Style ran;
            try (SgdTrainer t = new SgdTrainer(split.train(), split.test(), s, o, dev, style, null, store)) {
                long t2 = System.nanoTime();
                ran = t.kernel();
                double[] r0 = t.rmse();                                   // builds, copies the data to the device
                setupMs = ms(t2);
                if (!json) {
                    System.out.printf(Locale.ROOT, "data       %s: %d users x %d items, %d ratings (%d train, %d test), loaded in %.0f ms%n", name, all.users(), all.items(),
                            all.size(), split.train().size(), split.test().size(), loadMs);
                    if (spec != null) System.out.printf(Locale.ROOT, "floor      test RMSE %.4f (planted noise)%n", spec.floor());
                    if (reachable != null) {
                        System.out.printf(Locale.ROOT, "reachable  test RMSE %.4f (Bayes estimate of each user's factors given the planted item factors; %.0f ms)%n",
                                reachable, reachableMs);
                    }
                    System.out.printf(Locale.ROOT, "device     %s, rank %d, %s, %s kernel%n", dev.id(), rank,
                            store == SgdTrainer.Storage.FP16 ? "fp32 arithmetic, fp16 storage" : "fp32", switch (t.kernel()) {
                        case TASKS -> "tasks (a work-item per task)";
                        case LANES -> "lanes (32 per task)";
                        case WARPS -> "warps (" + SgdKernels.WARPS + " sub-groups of 32 lanes a work-group, a rating each)";
                        case PIPELINE -> "pipeline (32 lanes per task, item row kept, the rows of the next " + SgdKernels.PIPELINE + " ratings in registers)";
                        default -> "prefetch (32 lanes per task, item row kept, the rows of the next " + SgdKernels.PREFETCH + " ratings in flight)";
                    });
                    System.out.printf(Locale.ROOT, "schedule   %s: %s; widest step %d tasks; inspector %.1f ms%n", kind.cliName(), s.detail(), s.widestStep(), inspectMs);
                    System.out.printf(Locale.ROOT, "span       %d dependent updates an epoch (largest row: %d ratings; average parallelism %.0f)%n", span, rowBound,
                            (double) s.size() / span);
                    System.out.printf(Locale.ROOT, "epoch   0  train %.4f  test %.4f  (initial factors; build and copy %.0f ms)%n", r0[0], r0[1], setupMs);
                }
                try (Progress bar = Progress.open(run.progress(), "sgd", epochs, "epochs")) {
                    history = t.train(epochs, patience, target, st -> {
                        if (!json) {
                            System.out.printf(Locale.ROOT, "epoch %3d  train %.4f  test %.4f  lr %.5f  %.2f ms  %.3g updates/s%n", st.epoch(), st.trainRmse(), st.testRmse(), st.lr(),
                                    st.kernelMillis(), st.updatesPerSecond());
                        }
                        bar.stepTo(st.epoch());
                    });
                }
                factors = t.factors();
            }
            double[] rates = history.stream().skip(history.size() > 1 ? 1 : 0).mapToDouble(SgdTrainer.EpochStats::updatesPerSecond).sorted().toArray();
            double rate = rates.length == 0 ? Double.NaN : rates[rates.length / 2];
            double finalTest = history.isEmpty() ? Double.NaN : history.getLast().testRmse();
            double trainMs = history.stream().mapToDouble(SgdTrainer.EpochStats::kernelMillis).sum();
            Integer toTarget = null;
            Double msToTarget = null;
            double sumMs = 0;
            for (SgdTrainer.EpochStats st : history) {
                sumMs += st.kernelMillis();
                if (target > 0 && st.testRmse() <= target) {
                    toTarget = st.epoch();
                    msToTarget = sumMs;
                    break;
                }
            }
            double floorRef = reachable != null ? reachable : spec == null ? Double.NaN : spec.floor();
            boolean ok = !verify || finalTest <= 1.02 * floorRef;
            if (save != null) factors.save(save, all);
            List<Factors.Scored> best = List.of();
            int u = -1;
            if (top != null) {
                u = all.userIndex(user);
                if (u < 0) throw new IllegalArgumentException("--user " + user + ": no such user in " + name);
                best = factors.topN(u, top, all);
            }
            if (json) {
                List<Epoch> ep = history.stream().map(st -> new Epoch(st.epoch(), st.lr(), st.trainRmse(), st.testRmse(), st.kernelMillis(), st.updatesPerSecond())).toList();
                List<Top> tp = best.stream().map(sc -> new Top(all.itemId(sc.item()), sc.score())).toList();
                JsonOutput.print(new Result("sgd", name, all.users(), all.items(), all.size(), split.train().size(), split.test().size(),
                        spec == null ? null : spec.floor(), reachable, dev.id(), store == SgdTrainer.Storage.FP16 ? "fp16-storage" : "fp32", rank, kind.cliName(), s.detail(), ran.name().toLowerCase(Locale.ROOT), s.steps(), span, rowBound,
                        inspectMs, loadMs, setupMs, ep, finalTest, trainMs, rate, bytesPerUpdate, copyGbs, bound, rate / bound, verify, ok, tp,
                        target > 0 ? target : null, toTarget, msToTarget));
            } else {
                System.out.printf(Locale.ROOT, "rate       %.3g updates/s (median epoch), %d bytes an update: %.3g GB/s, %.0f%% of the bound %.3g updates/s (copy %.1f GB/s)%n",
                        rate, bytesPerUpdate, rate * bytesPerUpdate / 1e9, 100 * rate / bound, bound, copyGbs);
                System.out.printf(Locale.ROOT, "trained    %d epochs, %.1f ms of device time%s%n", history.size(), trainMs,
                        spec == null || history.isEmpty() ? "" : String.format(Locale.ROOT, ", final test RMSE %.4f = %.3f x floor, %.3f x reachable", finalTest,
                                finalTest / spec.floor(), finalTest / floorRef));
                if (target > 0) {
                    System.out.println(toTarget == null ? String.format(Locale.ROOT, "target     test RMSE %.4f not reached", target)
                            : String.format(Locale.ROOT, "target     test RMSE %.4f reached after epoch %d, %.1f ms of training", target, toTarget, msToTarget));
                }
                if (save != null) System.out.println("saved      " + save.resolve("factors.bin"));
                for (int r = 0; r < best.size(); r++) {
                    System.out.printf(Locale.ROOT, "top %-2d     item %s  predicted %.3f%n", r + 1, all.itemId(best.get(r).item()), best.get(r).score());
                }
                if (verify) System.out.println("verify     " + (ok ? "ok" : "FAILED: test RMSE above 1.02 x the reachable floor"));
            }
            allOk &= ok;
        }
        return allOk ? 0 : 1;
    }

    /** One schedule of a --schedule list, the kernel it runs and its device id (null: --device). */
    record Entry(ScheduleKind kind, SgdTrainer.Style style, String device) {
    }

    /**
     * The entries of a --schedule list ({@code SCHEDULE[:KERNEL][@DEVICE]}, comma-separated), {@code fallback} where no
     * kernel is named, --device where no device is.
     */
    static List<Entry> entries(String list, SgdTrainer.Style fallback) {
        List<Entry> out = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            String t = part.strip();
            if (t.isEmpty()) throw new IllegalArgumentException("--schedule '" + list + "': an empty entry");
            int at = t.indexOf('@');
            String device = at < 0 ? null : t.substring(at + 1).strip();
            if (device != null && device.isEmpty()) throw new IllegalArgumentException("--schedule '" + list + "': no device after '@' in '" + t + "'");
            if (at >= 0) t = t.substring(0, at);
            int c = t.indexOf(':');
            out.add(new Entry(ScheduleKind.parse(c < 0 ? t : t.substring(0, c)), c < 0 ? fallback : style(t.substring(c + 1)), device));
        }
        return out;
    }

    static SgdTrainer.Style style(String name) {
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> SgdTrainer.Style.AUTO;
            case "tasks" -> SgdTrainer.Style.TASKS;
            case "lanes" -> SgdTrainer.Style.LANES;
            case "prefetch" -> SgdTrainer.Style.PREFETCH;
            case "warps" -> SgdTrainer.Style.WARPS;
            case "pipeline" -> SgdTrainer.Style.PIPELINE;
            default -> throw new IllegalArgumentException("--kernel '" + name + "': expected auto, tasks, lanes, prefetch, pipeline or warps");
        };
    }


    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private void progress(String s) {
        System.err.println("sgd: " + s);
    }
}
