package dev.squall.sparse.spmv.kernels;

import static dev.squall.sparse.exec.DeviceArrays.values;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.SpmvChecks;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs one family's kernels directly and checks them: x, y and {@code coef = {alpha, beta}} on the device, the
 * kernels launched by {@code launches}, y read back and compared with the reference, first with beta 0 over a
 * poisoned y (y must not be read), then with alpha -1.5 and beta 0.5.
 */
final class KernelProducts {
    private KernelProducts() {
    }

    /** The launches of one product into {@code y}, from {@code x}, with the coefficients {@code coef}. */
    interface Launches {
        LaunchRunner.Launches of(KernelArray x, KernelArray y, KernelArray coef);
    }

    /** One variant's check of one matrix; false when the variant does not apply to it (the format refuses it, say). */
    interface MatrixCase<V> {
        boolean run(Device d, Precision p, V variant, String what, CsrMatrix a, Random rnd) throws Throwable;
    }

    /** A test per device, precision and variant, running {@code body} on every test matrix; each must apply to one at least. */
    static <V> Stream<DynamicTest> each(V[] variants, MatrixCase<V> body) {
        return DeviceCases.each(variants, d -> "", (d, p, variant) -> {
            Random rnd = new Random(variant.hashCode() + 31L * p.ordinal());
            int checked = 0;
            for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
                if (body.run(d, p, variant, d.id() + " " + p + " " + variant + " " + e.getKey(), e.getValue(), rnd)) checked++;
            }
            assertTrue(checked > 0, variant + ": no matrix checked");
        });
    }

    static void check(String what, CsrMatrix a, Device d, Precision p, Random rnd, Launches launches) {
        double[] x = rnd.doubles(a.cols(), -1, 1).toArray();
        double[] y0 = rnd.doubles(a.rows(), -1, 1).toArray();
        SpmvChecks.check(what + " (alpha 1, beta 0)", a, p, 1, x, 0, null, run(d, p, x, DeviceCases.poison(a.rows()), 1, 0, launches));
        SpmvChecks.check(what + " (alpha -1.5, beta 0.5)", a, p, -1.5, x, 0.5, y0, run(d, p, x, y0, -1.5, 0.5, launches));
    }

    private static double[] run(Device d, Precision p, double[] x, double[] y0, double alpha, double beta, Launches launches) {
        KernelArray xv = values(p, x), yv = values(p, y0), coef = values(p, new double[] {alpha, beta});
        try (LaunchRunner r = new LaunchRunner("kernel-test", d, launches.of(xv, yv, coef), xv, yv, coef)) {
            r.execute();
            r.copyBack(yv);
            return Precision.read(yv, y0.length);
        }
    }
}
