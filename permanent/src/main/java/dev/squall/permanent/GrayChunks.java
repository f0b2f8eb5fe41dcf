package dev.squall.permanent;

import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.cpu.DenseGraySweep;
import dev.squall.permanent.cpu.GraySweep;
import dev.squall.permanent.cpu.SparseGraySweep;
import dev.squall.permanent.cpu.WorkerThreads;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.GenericKernelPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Gray-code phase of Ryser's formula cut into chunks of steps that can run anywhere (threads, processes, cluster
 * tasks) and be summed afterwards in chunk order, so the value does not depend on where or when each chunk ran.
 *
 * <p>A chunk {@code [lo, hi)} yields its partials: {@code (sum, compensation)} pairs in step order. On the JVM a
 * chunk is cut at multiples of {@link #jvmUnit} and yields one pair per unit, exactly the partials
 * {@link dev.squall.permanent.cpu.ChunkedJvmPermanent} forms, so chunks summed by {@link #permanent} equal its value
 * bit for bit. On a device (generic or generated kernel) a chunk yields one pair, the kernels' partials added in
 * launch and work-item order. Chunk boundaries must be multiples of the chunk length, a power of two
 * ({@link #cut}); the matrix is the one the sweep runs on (row-scaled by the caller if wanted).
 *
 * <pre>{@code
 * GrayChunks chunks = new GrayChunks(Devices.jvm(), Method.DENSE);
 * List<double[]> partials = new ArrayList<>();
 * for (long[] c : GrayChunks.cut(a.n(), 8)) partials.add(chunks.partials(a, c[0], c[1]));
 * double perm = GrayChunks.permanent(a.n(), partials);
 * }</pre>
 */
public final class GrayChunks {
    private final Device device;
    private final Method method;
    private int threads = 1;

    /**
     * @param method DENSE or SPARSE (JVM sweeps on the JVM device, the generic kernels elsewhere), CODEGEN_REG or
     *               CODEGEN_HYBRID (generated kernels; CUDA or OpenCL only)
     */
    public GrayChunks(Device device, Method method) {
        boolean jvm = device.info().type() == DeviceType.JVM;
        switch (method) {
            case DENSE, SPARSE -> { }
            case CODEGEN_REG, CODEGEN_HYBRID -> {
                if (jvm) throw new IllegalArgumentException("method " + method.cliName() + " needs a CUDA or OpenCL device, got " + device.id());
            }
            default -> throw new IllegalArgumentException("chunks run dense, sparse, codegen-reg or codegen-hybrid sweeps, not " + method.cliName());
        }
        this.device = device;
        this.method = method;
    }

    /** Threads sharing a chunk's units on the JVM (default 1: a cluster task usually holds one core). */
    public GrayChunks threads(int t) {
        if (t < 1) throw new IllegalArgumentException("threads must be >= 1, got " + t);
        this.threads = t;
        return this;
    }

    public Device device() {
        return device;
    }

    public Method method() {
        return method;
    }

    /** The JVM's unit of partial sums for order n: the chunk size of {@link dev.squall.permanent.cpu.ChunkedJvmPermanent}. */
    public static long jvmUnit(int n) {
        return ChunkedJvmPermanent.chunkSize(n);
    }

    /**
     * Cuts the {@code 2^(n-1)} steps into {@code count} chunks of equal power-of-two length, or fewer when there are
     * fewer steps: {@code {lo, hi}} pairs in order. A count that is not a power of two is rounded up to one.
     */
    public static List<long[]> cut(int n, int count) {
        if (count < 1) throw new IllegalArgumentException("chunk count must be >= 1, got " + count);
        long steps = NijenhuisWilf.steps(n);
        long pieces = Math.min(steps, Long.highestOneBit(count) == count ? count : Long.highestOneBit(count) << 1);
        long length = steps / pieces;
        List<long[]> out = new ArrayList<>();
        for (long lo = 0; lo < steps; lo += length) out.add(new long[] {lo, lo + length});
        return out;
    }

    /** The partials of the steps {@code [lo, hi)}: (sum, compensation) pairs in step order, as a flat array. */
    public double[] partials(SquareMatrix a, long lo, long hi) {
        long steps = NijenhuisWilf.steps(a.n());
        NijenhuisWilf.checkRange(lo, hi, steps);
        long length = hi - lo;
        if (lo % Long.highestOneBit(length) != 0) {
            throw new IllegalArgumentException("chunk [" + lo + ", " + hi + ") does not start at a multiple of "
                    + Long.highestOneBit(length) + ": cut the steps into power-of-two chunks (GrayChunks.cut)");
        }
        if (device.info().type() == DeviceType.JVM) return jvm(a, lo, hi);
        return switch (method) {
            case DENSE -> new GenericKernelPermanent(device, false).partial(a, lo, hi);
            case SPARSE -> new GenericKernelPermanent(device, true).partial(a, lo, hi);
            case CODEGEN_REG -> new GeneratedKernelPermanent(device, GeneratedKernelPermanent.Variant.PURE_REG).compute(a, lo, hi).partial();
            case CODEGEN_HYBRID -> new GeneratedKernelPermanent(device, GeneratedKernelPermanent.Variant.HYBRID).compute(a, lo, hi).partial();
            default -> throw new IllegalStateException("unreachable: " + method);
        };
    }

    private double[] jvm(SquareMatrix a, long lo, long hi) {
        long unit = jvmUnit(a.n());
        if (lo % unit != 0 || (hi % unit != 0 && hi != NijenhuisWilf.steps(a.n()))) {
            throw new IllegalArgumentException("chunk [" + lo + ", " + hi + ") is not cut at multiples of the JVM unit " + unit);
        }
        int units = (int) ((hi - lo + unit - 1) / unit);
        double[] out = new double[2 * units];
        AtomicInteger next = new AtomicInteger();
        RuntimeException[] failure = new RuntimeException[1];
        Runnable work = () -> {
            try {
                GraySweep sweep = method == Method.SPARSE ? new SparseGraySweep(a) : new DenseGraySweep(a);
                for (int u; (u = next.getAndIncrement()) < units; ) {
                    long start = lo + u * unit;
                    KahanSum acc = new KahanSum();
                    sweep.sum(start, Math.min(hi, start + unit), acc);
                    out[2 * u] = acc.sum();
                    out[2 * u + 1] = acc.compensation();
                }
            } catch (RuntimeException e) {
                synchronized (failure) {
                    failure[0] = e;
                }
                next.set(units);
            }
        };
        WorkerThreads.run(work, Math.min(threads, units), "gray-chunk", "sweeping steps [" + lo + ", " + hi + ")");
        if (failure[0] != null) throw failure[0];
        return out;
    }

    /**
     * The permanent from every chunk's partials, given in chunk order: their pairs added with compensation in that
     * order, times the final factor {@code 2 (-1)^(n-1)}.
     */
    public static double permanent(int n, List<double[]> partialsInOrder) {
        KahanSum total = new KahanSum();
        for (double[] p : partialsInOrder) {
            if (p.length % 2 != 0) throw new IllegalArgumentException("partials come in (sum, compensation) pairs, got " + p.length + " numbers");
            for (int k = 0; k < p.length; k += 2) total.add(p[k], p[k + 1]);
        }
        return NijenhuisWilf.finalFactor(n) * total.value();
    }
}
