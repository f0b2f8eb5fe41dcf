package dev.squall.sparse.testing;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/** Dynamic tests over every device present, both precisions and a list of variants (formats, layouts...). */
public final class DeviceCases {
    private DeviceCases() {
    }

    /** One case's check. */
    public interface Body<V> {
        void run(Device d, Precision p, V variant) throws Throwable;
    }

    /** A test per device, precision and variant, named "device precision variant" plus {@code suffix(d)}. */
    public static <V> Stream<DynamicTest> each(V[] variants, java.util.function.Function<Device, String> suffix, Body<V> body) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (Precision p : Precision.values()) {
                for (V v : variants) {
                    tests.add(DynamicTest.dynamicTest(d.id() + " " + p + " " + v + suffix.apply(d), () -> body.run(d, p, v)));
                }
            }
        }
        return tests.stream();
    }

    /** {@code n} NaNs: an output poisoned before a run, so a value that is never written shows. */
    public static double[] poison(int n) {
        double[] v = new double[n];
        Arrays.fill(v, Double.NaN);
        return v;
    }
}
