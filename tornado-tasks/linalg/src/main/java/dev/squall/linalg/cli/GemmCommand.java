package dev.squall.linalg.cli;

import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.ReferenceGemm;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import dev.squall.cli.CostEstimate;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.Sizes;
import dev.squall.cli.SquallSubcommand;

import java.util.Locale;
import java.util.SplittableRandom;

/** {@code squall gemm}: batched uniform GEMM on the marshaled form. */
@Command(name = "gemm", header = "Batched GEMM of uniform blocks, with GFLOP/s.",
        description = {"Batched GEMM C_e = op(A_e) op(B_e) of B uniform m x n x k products stored back to back (random inputs), printing"
                + " device time and GFLOP/s (2mnk per product); --verify compares 3 sampled products with plain Java.",
                "",
                "Examples:",
                "  squall gemm --m 64 --batch 1000 --device jvm --verify",
                "  squall gemm --m 40 --n 17 --k 33 --batch 100 --transb T --device jvm --verify",
                "  squall gemm --m 512 --precision fp64 --json",
                "  squall gemm --m 8192 --device cuda:0 --json   # needs a GPU",
                "  squall gemm --m 8192 --kernel tiles --device cuda:0   # needs a GPU; the FMA kernel, to compare with the tensor cores"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5)
public final class GemmCommand implements SquallSubcommand {
    @Option(names = "--m", paramLabel = "M", required = true, description = "rows of C")
    int m;

    @Option(names = "--n", paramLabel = "N", description = "columns of C (default m)")
    Integer n;

    @Option(names = "--k", paramLabel = "K", description = "inner dimension (default m)")
    Integer k;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "1", description = "number of products (default ${DEFAULT-VALUE})")
    int batch;

    @Option(names = "--transa", paramLabel = "N|T", defaultValue = "N", description = "op(A) (default ${DEFAULT-VALUE})")
    Transpose transA;

    @Option(names = "--transb", paramLabel = "N|T", defaultValue = "N", description = "op(B) (default ${DEFAULT-VALUE})")
    Transpose transB;

    @Option(names = "--kernel", paramLabel = "K", defaultValue = "auto",
            description = "auto: the fastest kernel for the device and shape: on CUDA 8.0+ for fp64, chunk-w8-d32-s3 from 256 rows, columns and depth"
                    + " where a block may take 216 KiB of shared memory (sm_90 and later but sm_120; the fastest on an H100),"
                    + " else chunk-w8-s3 where 160 KiB fit (sm_80, sm_87), else mma, which also takes smaller products (128 x 128 tiles from 256 rows and columns,"
                    + " 64 x 64 below); tiles elsewhere and for fp32. Or name one: tiles (FP64/FP32 FMA), mma (FP64 tensor cores, register staging),"
                    + " the fp64 tensor-core kernel with a pipeline of asynchronous copies: pipe-w8-s3, pipe-w8-s4, pipe-w8-s2 (8 warps of 64 x 32, 2-4 stages),"
                    + " pipe-w16-s3, pipe-w16-s4 (16 warps of 32 x 32); chunk-w8-s3, chunk-w16-s3, chunk-w16-s4: the same with each work-item's"
                    + " copy chunks laid out once; chunk-w16-d32-s3, chunk-w8-d32-s3: panels of depth 32 (default ${DEFAULT-VALUE})")
    String kernel;

    @Option(names = "--split-last-wave", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "on a GPU, a product by chunk-w8-d32-s3 whose tiles leave a short last wave (8192^3 on 132 SMs: 4 tiles)"
                    + " computes those tiles in depth slices on every SM, then sums them; --no-split-last-wave keeps them whole (default ${DEFAULT-VALUE})")
    boolean splitLastWave;

    @Mixin
    RunOptions run;

    @Mixin
    SeedOption seed;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): m, n, k, batch, op(A) and op(B) (N or T), precision, device, the
     * kernel used (tiles, mma, ...), whether a short last wave may be split over depth (--split-last-wave), device times
     * (median and minimum, ms), GFLOP/s, whether --verify ran, the largest
     * |C - C_ref| / sqrt(k) on the sampled products, and {@code ok}.
     */
    public record Result(String command, int m, int n, int k, int batch, String transa, String transb, String precision, String device, String kernel,
                         boolean splitLastWave, double msMedian, double msMin, double gflops, boolean verified, Double maxError, boolean ok) {
    }

    @Override
    public Integer call() {
        int nn = n == null ? m : n, kk = k == null ? m : k;
        Sizes.inRange("--m", m, 1, Integer.MAX_VALUE);
        Sizes.inRange(n == null ? "--n (= --m)" : "--n", nn, 1, Integer.MAX_VALUE);
        Sizes.inRange(k == null ? "--k (= --m)" : "--k", kk, 1, Integer.MAX_VALUE);
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        long sa = Sizes.intElements("--m x --k (A)", m, kk), sb = Sizes.intElements("--k x --n (B)", kk, nn), sc = Sizes.intElements("--m x --n (C)", m, nn);
        Sizes.intElements("--batch x the largest operand", batch, Math.max(sa, Math.max(sb, sc)));
        Precision p = run.precision();
        Device device = run.device();
        CostEstimate.warnIfSlow(System.err, device, 2.0 * m * nn * kk * batch * (run.repeat() + 1),
                String.format(Locale.ROOT, "gemm %d x %d x %d batch=%d, %d runs", m, nn, kk, batch, run.repeat() + 1));
        SplittableRandom rnd = new SplittableRandom(seed.seed);
        KernelArray a = p.fromDoubles(rnd.doubles(sa * batch, -1, 1).toArray()), b = p.fromDoubles(rnd.doubles(sb * batch, -1, 1).toArray());
        KernelArray c = p.allocate(sc * batch);
        int lda = transA == Transpose.N ? m : kk, ldb = transB == Transpose.N ? kk : nn;
        BatchDescriptor d = BatchDescriptor.stridedWithLd(batch, m, nn, kk, (int) sa, lda, (int) sb, ldb, (int) sc, m);
        LaunchSequence seq = new LaunchSequence("gemm", device);
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b);
        GemmKernel used = kernel.equals("auto") ? BatchedGemm.choose(device, p, d) : GemmKernel.parse(kernel);
        BatchedGemm.append(seq, transA, transB, 1, a, b, 0, c, d, false, false, used, splitLastWave);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels("gemm", plan, run);
            if (run.verify()) plan.execute().transferToHost(c);
        }
        double flops = 2.0 * d.multiplyAdds();
        double err = 0;
        if (run.verify()) {
            double[] ha = Precision.toDoubles(a), hb = Precision.toDoubles(b), hc = Precision.toDoubles(c);
            for (int e : Report.sampled(batch)) {
                double[] ref = new double[(int) sc];
                ReferenceGemm.gemm(transA == Transpose.T, transB == Transpose.T, m, nn, kk, 1, ha, (int) (e * sa), lda, hb, (int) (e * sb), ldb, 0, ref, 0, m);
                for (int i = 0; i < sc; i++) err = Math.max(err, Math.abs(ref[i] - hc[(int) (e * sc) + i]) / Math.sqrt(kk));
            }
        }
        boolean ok = !run.verify() || err <= 50 * p.epsilon() * Math.sqrt(kk) * 4;
        if (run.json()) {
            JsonOutput.print(new Result("gemm", m, nn, kk, batch, transA.toString(), transB.toString(), p.toString(), device.id(), used.cliName(), splitLastWave,
                    t.medianMs(), t.minMs(), t.gflops(flops), run.verify(), Report.orNull(run.verify(), err), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "gemm %dx%dx%d batch=%d %s%s %s kernel=%s on %s: %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                    m, nn, kk, batch, transA, transB, p, used.cliName(), device.id(), t.medianMs(), t.minMs(), t.gflops(flops)));
            if (run.verify()) System.out.println(String.format(Locale.ROOT, "max |C - C_ref| / sqrt(k) on 3 entries' blocks = %.3e %s", err, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
