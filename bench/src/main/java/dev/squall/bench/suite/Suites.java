package dev.squall.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The workloads of {@code squall demo} and of each {@code squall bench} suite, at their sizes. The demo runs one size
 * of each workload ({@code quick} to finish within a minute on a 2-core machine with two devices, {@code full} larger);
 * the bench suites run several sizes of each, for scaling: {@code quick} (under five minutes on a 2-core machine)
 * and {@code full} (sizes that keep a GPU busy). A workload's name as the suite runs that workload at the quick sizes.
 */
public final class Suites {
    /** The workload names, in the order they run. */
    public static final List<String> WORKLOADS = List.of("h2", "ksum-dense", "ksum-sparse", "spmv", "pcg", "cholesky", "sgd", "permanent");

    private Suites() {
    }

    /** The demo's tour: one size of each workload. */
    public static List<Workload> demo(boolean full) {
        return full
                ? List.of(new H2Matvec(32768, 8, 1e-6), new KernelSumDense(32768), new KernelSumBlockSparse(200_000), new SpmvAuto(SpmvAuto.BUS),
                        new PcgSolve(32), new BatchedCholeskyFactor(64, 10_000), new SgdEpoch(20_000, 5_000, 1_000_000), new PermanentDense(26))
                : List.of(new H2Matvec(4096, 6, 1e-5), new KernelSumDense(2048), new KernelSumBlockSparse(10_000), new SpmvAuto(SpmvAuto.BUS),
                        new PcgSolve(12), new BatchedCholeskyFactor(32, 256), new SgdEpoch(2000, 1000, 100_000), new PermanentDense(18));
    }

    /** The workloads of suite {@code name}: quick, full, or one workload's name (its quick sizes). */
    public static List<Workload> suite(String name) {
        String s = name.strip().toLowerCase(Locale.ROOT);
        if (s.equals("quick") || s.equals("full")) {
            List<Workload> all = new ArrayList<>();
            for (String w : WORKLOADS) all.addAll(sizes(w, s.equals("full")));
            return all;
        }
        if (!WORKLOADS.contains(s)) {
            throw new IllegalArgumentException("unknown suite '" + name + "' (quick, full, stream, queues, or a workload: " + String.join(", ", WORKLOADS) + ")");
        }
        return sizes(s, false);
    }

    /** Workload {@code name} at the sizes of the quick or the full suite, smallest first. */
    static List<Workload> sizes(String name, boolean full) {
        return switch (name) {
            case "h2" -> full ? List.of(new H2Matvec(16384, 8, 1e-6), new H2Matvec(65536, 8, 1e-6), new H2Matvec(262144, 8, 1e-6))
                    : List.of(new H2Matvec(1024, 6, 1e-5), new H2Matvec(2048, 6, 1e-5), new H2Matvec(4096, 6, 1e-5));
            case "ksum-dense" -> full ? List.of(new KernelSumDense(16384), new KernelSumDense(65536), new KernelSumDense(262144))
                    : List.of(new KernelSumDense(1024), new KernelSumDense(2048), new KernelSumDense(4096));
            case "ksum-sparse" -> full ? List.of(new KernelSumBlockSparse(100_000), new KernelSumBlockSparse(400_000), new KernelSumBlockSparse(1_600_000))
                    : List.of(new KernelSumBlockSparse(5000), new KernelSumBlockSparse(10_000), new KernelSumBlockSparse(20_000));
            case "spmv" -> full ? List.of(new SpmvAuto(SpmvAuto.BUS), new SpmvAuto("27pt:64x64x64"), new SpmvAuto("27pt:128x128x128"))
                    : List.of(new SpmvAuto(SpmvAuto.BUS), new SpmvAuto("27pt:16x16x16"), new SpmvAuto("27pt:32x32x32"));
            case "pcg" -> full ? List.of(new PcgSolve(32), new PcgSolve(64), new PcgSolve(128))
                    : List.of(new PcgSolve(8), new PcgSolve(12), new PcgSolve(16));
            case "cholesky" -> full ? List.of(new BatchedCholeskyFactor(64, 10_000), new BatchedCholeskyFactor(64, 40_000), new BatchedCholeskyFactor(64, 160_000))
                    : List.of(new BatchedCholeskyFactor(32, 128), new BatchedCholeskyFactor(32, 256), new BatchedCholeskyFactor(32, 512));
            case "sgd" -> full ? List.of(new SgdEpoch(20_000, 5_000, 1_000_000), new SgdEpoch(80_000, 20_000, 4_000_000), new SgdEpoch(138_493, 26_744, 20_000_000))
                    : List.of(new SgdEpoch(1000, 500, 25_000), new SgdEpoch(2000, 1000, 50_000), new SgdEpoch(2000, 1000, 100_000));
            case "permanent" -> full ? List.of(new PermanentDense(22), new PermanentDense(25), new PermanentDense(28))
                    : List.of(new PermanentDense(14), new PermanentDense(16), new PermanentDense(18));
            default -> throw new IllegalArgumentException("unknown workload " + name);
        };
    }
}
