package dev.squall.bench.jmh;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.Devices;

import java.util.Locale;

/**
 * The device and precision parameters of the JMH suites. Every suite's {@code device} parameter runs over
 * {@code jvm}, {@code opencl} and {@code cuda} (the first device of each backend; {@code -p device=opencl:1:0} names
 * another). A value whose device is not on this machine fails that benchmark's setup with the driver's reason, so JMH
 * reports it as a failure (and {@code -foe true} stops the run) instead of timing nothing.
 */
final class BenchDevice {
    private BenchDevice() {
    }

    /** The device {@code id}; an absent one throws, naming the parameter, the reason and the devices present. */
    static Device open(String id) {
        try {
            return Devices.get(id);
        } catch (DeviceException e) {
            throw new IllegalStateException("JMH parameter device=" + id + " is not present on this machine: " + e.getMessage()
                    + " (leave it out with -p device=" + String.join(",", Devices.all().stream().map(Device::id).toList()) + ")", e);
        }
    }

    /** Relative 2-norm difference of {@code got} from {@code want}; throws when it exceeds {@code tol}. */
    static void check(String what, double[] got, double[] want, double tol) {
        double num = 0, den = 0;
        for (int i = 0; i < want.length; i++) {
            double d = got[i] - want[i];
            num += d * d;
            den += want[i] * want[i];
        }
        double rel = Math.sqrt(num / Math.max(den, Double.MIN_NORMAL));
        if (!(rel <= tol)) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s: relative error %.3g against the reference exceeds %.1g", what, rel, tol));
        }
    }
}
