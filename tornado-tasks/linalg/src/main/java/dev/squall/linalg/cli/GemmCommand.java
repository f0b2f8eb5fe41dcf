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

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/** {@code squall gemm}: batched uniform GEMM on the marshaled form. */
@Command(name = "gemm", header = "Batched GEMM of uniform blocks, with GFLOP/s.",
        mixinStandardHelpOptions = true,
        description = {"Batched GEMM C_e = op(A_e) op(B_e) of B uniform m x n x k products stored", "back to back (random inputs), printing device time and GFLOP/s (2mnk per", "product); --verify compares 3 sampled entries with plain Java.", "",
                "Examples:",
                "  squall gemm --m 64 --batch 10000 --device cuda:0 --verify",
                "  squall gemm --m 8192 --batch 1 --precision fp64 --json",
                "  squall gemm --m 8192 --kernel tiles --device cuda:0   (the FMA kernel, to compare with the tensor cores)",
                "  squall gemm --m 40 --n 17 --k 33 --batch 100 --transb T --device jvm --verify", "",
                "Exit codes: 0 ok, 1 verification failed, 2 bad input, 3 device error."})
public final class GemmCommand implements Callable<Integer> {
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
            description = "auto (FP64 tensor cores for fp64 products on CUDA 8.0+: 128 x 128 tiles from 256 rows and columns, 64 x 64 below; else tiles), tiles or mma (default ${DEFAULT-VALUE})")
    String kernel;

    @Mixin
    CommonOptions common;

    @Override
    public Integer call() {
        common.check();
        int nn = n == null ? m : n, kk = k == null ? m : k;
        if (m < 1 || nn < 1 || kk < 1 || batch < 1) throw new IllegalArgumentException("--m, --n, --k and --batch must be >= 1");
        long sa = (long) m * kk, sb = (long) kk * nn, sc = (long) m * nn;
        Report.checkElements(Math.max(sa, Math.max(sb, sc)) * batch, "--batch x the largest operand");
        Precision p = common.precision();
        Device device = Devices.select(common.device);
        SplittableRandom rnd = new SplittableRandom(common.seed);
        KernelArray a = p.fromDoubles(rnd.doubles(sa * batch, -1, 1).toArray()), b = p.fromDoubles(rnd.doubles(sb * batch, -1, 1).toArray());
        KernelArray c = p.allocate(sc * batch);
        int lda = transA == Transpose.N ? m : kk, ldb = transB == Transpose.N ? kk : nn;
        BatchDescriptor d = BatchDescriptor.stridedWithLd(batch, m, nn, kk, (int) sa, lda, (int) sb, ldb, (int) sc, m);
        LaunchSequence seq = new LaunchSequence("gemm", device);
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b);
        GemmKernel used = kernel.equals("auto") ? BatchedGemm.choose(device, p) : GemmKernel.parse(kernel);
        BatchedGemm.append(seq, transA, transB, 1, a, b, 0, c, d, false, used);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels(plan, common.repeat);
            if (common.verify) plan.execute().transferToHost(c);
        }
        double flops = 2.0 * d.multiplyAdds();
        double err = 0;
        if (common.verify) {
            double[] ha = Precision.toDoubles(a), hb = Precision.toDoubles(b), hc = Precision.toDoubles(c);
            for (int e : Report.sampled(batch)) {
                double[] ref = new double[(int) sc];
                ReferenceGemm.gemm(transA == Transpose.T, transB == Transpose.T, m, nn, kk, 1, ha, (int) (e * sa), lda, hb, (int) (e * sb), ldb, 0, ref, 0, m);
                for (int i = 0; i < sc; i++) err = Math.max(err, Math.abs(ref[i] - hc[(int) (e * sc) + i]) / Math.sqrt(kk));
            }
        }
        boolean ok = !common.verify || err <= 50 * p.epsilon() * Math.sqrt(kk) * 4;
        if (common.json) {
            System.out.println(String.format(Locale.ROOT,
                    "{\"command\":\"gemm\",\"m\":%d,\"n\":%d,\"k\":%d,\"batch\":%d,\"precision\":\"%s\",\"device\":\"%s\",\"kernel\":\"%s\",\"ms_median\":%.4f,\"ms_min\":%.4f,"
                            + "\"gflops\":%.2f,\"verified\":%b,\"max_error\":%s,\"ok\":%b}",
                    m, nn, kk, batch, p, device.id(), used.name().toLowerCase(Locale.ROOT), t.medianMs(), t.minMs(), t.gflops(flops), common.verify, Report.num(common.verify ? err : Double.NaN), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "gemm %dx%dx%d batch=%d %s%s %s kernel=%s on %s: %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                    m, nn, kk, batch, transA, transB, p, used.name().toLowerCase(Locale.ROOT), device.id(), t.medianMs(), t.minMs(), t.gflops(flops)));
            if (common.verify) System.out.println(String.format(Locale.ROOT, "max |C - C_ref| / sqrt(k) on 3 entries' blocks = %.3e %s", err, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
