package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.Parallel;

/** A user kernel as users write one: the compactly supported Wendland function {@code (1 - r/l)_+^4 (4 r/l + 1)}. */
public final class UserKernels {
    private UserKernels() {
    }

    @DeviceFunction
    public static double wendland(double r, double l) {
        double s = r / l;
        if (s >= 1.0) {
            return 0.0;
        }
        double t = 1.0 - s;
        return t * t * t * t * (4.0 * s + 1.0);
    }

    @Kernel
    public static void applyWendland(DoubleArray v, long n, double l) {
        for (@Parallel long i = 0; i < n; i++) {
            v.set(i, wendland(v.get(i), l));
        }
    }
}
