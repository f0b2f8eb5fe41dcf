package dev.squall.linalg.cli;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.TriangularInverse;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code squall trinv}: batched lower-triangular inverse (Stan's diag_inv + multiply rounds). */
@Command(name = "trinv", header = "Lower-triangular inverse (Stan), one matrix or a batch.",
        mixinStandardHelpOptions = true,
        description = {"Invert B random lower-triangular n x n matrices (diagonal in [1,2], off-", "diagonal in [-1,1]/n) on a device: diag_inv on the diagonal blocks in one", "launch, then log2(n/tb) rounds of C3 = -C2 A3 C1 as batched GEMMs. Prints", "the device time, GFLOP/s (n^3/3 per matrix) and, with --verify, |L X v - v|", "/ |v| over 3 random v. For n <= 64 the default --kernel warp inverts each", "matrix with one warp in a single launch (L in local memory, each lane its", "own rows of the inverse); --kernel warp-shuffle is round 4's warp kernel", "(rows exchanged by shuffles); --kernel blocks runs diag_inv + GEMM rounds", "(the round-2 path). Both kept for comparison.", "",
                "Examples:",
                "  squall trinv --n 64 --batch 10000 --device cuda:0 --verify",
                "  squall trinv --n 64 --batch 10000 --kernel blocks --block 32 --device cuda:0",
                "  squall trinv --n 4096 --precision fp32 --json",
                "  squall trinv --n 300 --block 16 --device jvm --verify", "",
                "Exit codes: 0 ok, 1 residual above tolerance, 2 bad input, 3 device error."})
public final class TrinvCommand implements Callable<Integer> {
    @Option(names = "--n", paramLabel = "N", required = true, description = "matrix order")
    int n;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "1", description = "number of matrices (default ${DEFAULT-VALUE})")
    int batch;

    @Option(names = "--block", paramLabel = "TB", defaultValue = "32", description = "diag_inv block size, 1..64 (default ${DEFAULT-VALUE})")
    int block;

    @Option(names = "--kernel", paramLabel = "K", description = "warp, warp-shuffle (both n <= 64) or blocks (default: warp up to n = 64, else blocks)")
    String kernel;

    @Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        common.check();
        if (n < 1 || batch < 1) throw new IllegalArgumentException("--n and --batch must be >= 1, got " + n + " and " + batch);
        Report.checkElements((long) n * n * batch, "--batch x --n^2");
        String k = kernel == null ? (n <= 64 ? "warp" : "blocks") : kernel.toLowerCase(java.util.Locale.ROOT);
        if (!k.equals("warp") && !k.equals("warp-shuffle") && !k.equals("blocks")) {
            throw new IllegalArgumentException("--kernel must be warp, warp-shuffle or blocks, got " + kernel);
        }
        if (!k.equals("blocks") && n > 64) throw new IllegalArgumentException("--kernel " + k + " needs --n <= 64, got " + n);
        Precision p = common.precision();
        Device device = Devices.select(common.device);
        KernelArray l = Inputs.lowerTriangular(p, n, batch, common.seed);
        InputChecks.nonZeroDiagonal("L", l, n, batch);
        KernelArray w = p.allocate((long) n * n * batch);
        LaunchSequence seq = new LaunchSequence("trinv");
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, l);
        if (k.equals("warp")) TriangularInverse.appendWarp(seq, l, 0, n, n * n, w, n, batch);
        else if (k.equals("warp-shuffle")) TriangularInverse.appendWarpShuffle(seq, l, 0, n, n * n, w, n, batch);
        else TriangularInverse.append(seq, l, 0, n, n * n, w, p.allocate(TriangularInverse.tempLength(n, batch)), n, batch, block);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels(plan, common.repeat);
            if (common.verify) plan.execute().transferToHost(w);
        }
        double flops = (double) n * n * n / 3 * batch;
        double residual = common.verify ? Probes.inverse(n, batch, l, w) : Double.NaN;
        boolean ok = !common.verify || residual <= 50 * p.epsilon() * Math.sqrt(n) * 4;
        if (common.json) {
            System.out.println(String.format(Locale.ROOT,
                    "{\"command\":\"trinv\",\"n\":%d,\"batch\":%d,\"kernel\":\"%s\",\"block\":%d,\"precision\":\"%s\",\"device\":\"%s\",\"launches\":%d,\"ms_median\":%.4f,"
                            + "\"ms_min\":%.4f,\"gflops\":%.2f,\"verified\":%b,\"residual\":%s,\"ok\":%b}",
                    n, batch, k, block, p, device.id(), seq.launches(), t.medianMs(), t.minMs(), t.gflops(flops), common.verify,
                    Report.num(residual), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "trinv n=%d batch=%d kernel=%s block=%d %s on %s (%s): %d launches, %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                    n, batch, k, block, p, device.id(), device.info().name(), seq.launches(), t.medianMs(), t.minMs(), t.gflops(flops)));
            if (common.verify) System.out.println(String.format(Locale.ROOT, "residual |L X v - v|/|v| = %.3e %s", residual, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
