package dev.squall.bench.suite;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every workload, at small sizes of awkward shapes, on every device present: its result passes its plain-Java
 * reference, its figures follow from its samples (rate = work / median, ratio = rate / the device's limit), and a
 * result changed by a part in a thousand fails the check.
 */
class WorkloadTest {
    /** Small instances: sizes not multiples of tiles or warps, a real and a generated matrix. */
    static List<Workload> small() {
        return List.of(new H2Matvec(1000, 5, 1e-4), new KernelSumDense(333), new KernelSumBlockSparse(2500), new SpmvAuto(SpmvAuto.BUS),
                new SpmvAuto("27pt:7x6x5"), new PcgSolve(7), new BatchedCholeskyFactor(13, 37), new SgdEpoch(300, 200, 8000), new PermanentDense(9));
    }

    static List<Device> devices() {
        List<Device> all = Devices.all();
        if ("1".equals(System.getenv("SQUALL_REQUIRE_OPENCL"))) {
            assertTrue(all.stream().anyMatch(d -> d.info().backend().equals("opencl")), "SQUALL_REQUIRE_OPENCL=1 but no OpenCL device: " + Devices.backends());
        }
        return all;
    }

    @TestFactory
    Stream<DynamicTest> measuredVerifiedAndCaughtWhenWrong() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : devices()) {
            DeviceLimits limits = new DeviceLimits(d.id(), 10.0, 1, 20.0, 0);   // fixed limits: the ratio's arithmetic is what is checked
            for (Workload w : small()) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + w, () -> {
                    Measurement m = w.measure(d, limits, 3, ResultHook.NONE);
                    assertTrue(m.ok() && m.error() <= m.tolerance(), m.toString());
                    assertEquals(3, m.samplesMs().length);
                    for (double ms : m.samplesMs()) assertTrue(ms > 0 && Double.isFinite(ms), m.toString());
                    assertEquals(Measurement.median(m.samplesMs()), m.medianMs());
                    assertTrue(m.work() > 0, m.toString());
                    assertEquals(m.work() / (m.medianMs() * 1e-3) / 1e9, m.rate(), 1e-12 * m.rate());
                    assertEquals(w.bound() == Bound.MEMORY ? 10.0 : 20.0, m.limit());
                    assertEquals(m.rate() / m.limit(), m.ratioToLimit(), 1e-12 * m.ratioToLimit());
                    assertEquals(d.id(), m.device());

                    Measurement wrong = w.measure(d, limits, 1, (name, values) -> {
                        assertEquals(w.name(), name);
                        for (int i = 0; i < values.length; i++) values[i] *= 1.001;
                    });
                    assertFalse(wrong.ok(), "a result off by 1e-3 passed: " + wrong);
                    assertTrue(wrong.error() > wrong.tolerance(), wrong.toString());
                    Measurement nan = w.measure(d, limits, 1, (name, values) -> values[values.length / 2] = Double.NaN);
                    if (w.name().equals("h2") || w.name().startsWith("ksum")) return;   // sampled rows may miss the entry
                    assertFalse(nan.ok(), "a NaN passed: " + nan);
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> deviceLimitsArePositiveAndTheCopyIsWarm() {
        return devices().stream().map(d -> DynamicTest.dynamicTest(d.id(), () -> {
            DeviceLimits l = DeviceLimits.measure(d);
            assertTrue(l.copyGbs() > 0.1 && l.copyGbs() < 1e5, l.toString());
            assertTrue(l.fmaGflops() > 0.1 && l.fmaGflops() < 1e6, l.toString());
            assertEquals(l.copyGbs(), l.limit(Bound.MEMORY));
            assertEquals(l.fmaGflops(), l.limit(Bound.COMPUTE));
        }));
    }

    @org.junit.jupiter.api.Test
    void suitesNameTheirWorkloadsAndRejectUnknownOnes() {
        assertEquals(Suites.WORKLOADS, Suites.demo(false).stream().map(Workload::name).toList());
        assertEquals(Suites.WORKLOADS, Suites.demo(true).stream().map(Workload::name).toList());
        for (String s : List.of("quick", "full")) {
            List<Workload> all = Suites.suite(s);
            assertEquals(3 * Suites.WORKLOADS.size(), all.size(), s);
            for (int i = 0; i < all.size(); i += 3) {
                assertTrue(all.get(i).scale() < all.get(i + 1).scale() && all.get(i + 1).scale() < all.get(i + 2).scale(), "sizes grow: " + all.subList(i, i + 3));
            }
        }
        assertEquals(List.of("pcg", "pcg", "pcg"), Suites.suite("pcg").stream().map(Workload::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Suites.suite("fft"));
        assertTrue(e.getMessage().contains("unknown suite 'fft'") && e.getMessage().contains("ksum-sparse"), e.getMessage());
    }
}
