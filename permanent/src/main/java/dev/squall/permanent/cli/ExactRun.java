package dev.squall.permanent.cli;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.cpu.ProgressListener;
import dev.squall.permanent.exact.BinaryKernelPermanent;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;

/**
 * One exact 0/1 permanent for {@code --exact}: the 64-bit exact kernel on a CUDA/OpenCL device,
 * the 128-bit multi-threaded path on the JVM; with its time and step count.
 */
record ExactRun(BinaryPermanent.Result result, Device device, String path, double seconds, long steps) {
    static ExactRun on(Device device, SquareMatrix a, int jvmThreads, ProgressListener progress) {
        long t0 = System.nanoTime();
        if (device.isJvm()) {
            BinaryPermanent.Result r = new BinaryPermanent(jvmThreads).of(a);
            return new ExactRun(r, device, "128-bit Nijenhuis-Wilf sweep", (System.nanoTime() - t0) / 1e9, NijenhuisWilf.steps(a.n()));
        }
        BinaryPermanent.Result r = new BinaryKernelPermanent(device).withProgress(progress).compute(a);
        return new ExactRun(r, device, "64-bit Ryser kernel", (System.nanoTime() - t0) / 1e9, 1L << a.n());
    }
}
