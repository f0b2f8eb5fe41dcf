package dev.squall.hmatrix.kernel;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.Parallel;

/** A user-supplied covariance kernel, written as users write theirs: the Cauchy kernel {@code 1 / (1 + (r/l)^2)}. */
public final class UserKernels {
    private UserKernels() {
    }

    @DeviceFunction
    public static double cauchy(double r, double l) {
        double s = r / l;
        return 1.0 / (1.0 + s * s);
    }

    @Kernel
    public static void applyCauchy(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, cauchy(v.get(i), l));
        }
    }
}
