package dev.squall.permanent.codegen;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

/** Generated PureReg and Hybrid kernels on every native device (PoCL in CI). */
class GeneratedKernelPermanentTest {
    static List<Device> devices() {
        return TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void closedForms(Device d) {
        for (GeneratedKernelPermanent.Variant v : GeneratedKernelPermanent.Variant.values()) {
            assertRelative(factorial(11).doubleValue(), new GeneratedKernelPermanent(d, v).compute(ones(11)).value(), 1e-11, "J_11 " + v);
            assertRelative(derangements(12).doubleValue(), new GeneratedKernelPermanent(d, v).withMaxThreads(5).compute(onesMinusIdentity(12)).value(), 1e-11, "D_12 " + v);
            assertRelative(fibonacci(16), new GeneratedKernelPermanent(d, v).compute(tridiagonalOnes(16)).value(), 1e-12, "tridiagonal " + v);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void randomRealMatricesMatchExactAndJvm(Device d) {
        SquareMatrix a = randomDyadic(16, 0.35, 515);
        double exact = exactDyadic(a);
        assertTrue(exact > 0, "test matrix must not be structurally singular");
        GeneratedKernelPermanent.Run reg = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.PURE_REG).compute(a);
        assertRelative(exact, reg.value(), 1e-10, "PureReg");
        assertEquals(0, reg.globalRows());
        // force a split with global rows: 3 register columns
        GeneratedKernelPermanent.Run hyb = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID)
                .withRegisterColumns(3).withMaxThreads(70).compute(a);
        assertTrue(hyb.globalRows() > 0, "the forced split must put rows in global memory");
        assertRelative(exact, hyb.value(), 1e-10, "Hybrid c=3");
        SquareMatrix b = random(19, 0.25, 0, 1, 916);
        double jvm = new ChunkedJvmPermanent(2).sparse(b);
        assertRelative(jvm, new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID).compute(b).value(), 1e-10, "Hybrid n=19 vs JVM");
    }

    /** 32-step static blocks, cached level products and cold steps on global rows, against the double-double sweep. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void unrolledBlocksAndColdStepsMatchDoubleDoubleSweep(Device d) {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(20, 0.2, 7); // rejects structurally singular draws
        double ref = new ChunkedJvmPermanent(2).accurate(a);
        GeneratedKernelPermanent.Run reg = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.PURE_REG).withMaxThreads(45).compute(a);
        assertTrue(reg.source().contains("g += 32;"), "sparse matrices get 32-step blocks");
        assertRelative(ref, reg.value(), 1e-10, "PureReg n=20");
        GeneratedKernelPermanent.Run hyb = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID)
                .withRegisterColumns(6).withMaxThreads(45).compute(a);
        assertTrue(hyb.globalRows() > 0 && hyb.source().contains("global_product(xt)"), "the forced split must have cold steps");
        assertRelative(ref, hyb.value(), 1e-10, "Hybrid c=6 n=20");
    }

    /** A second run of the same matrix in this process reuses the built kernel (no build) and gives the same value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void repeatedRunReusesTheKernelBuiltInThisProcess(Device d) {
        SquareMatrix a = random(17, 0.3, -1, 1, 4242);
        double ref = new ChunkedJvmPermanent(2).accurate(a);
        GeneratedKernelPermanent.Run first = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID).compute(a);
        GeneratedKernelPermanent.Run second = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID).compute(a);
        assertRelative(ref, first.value(), 1e-10, "first run");
        assertEquals(first.value(), second.value(), "same kernel, same launches: the same value");
        assertTrue(second.fromCache(), "the second run takes the kernel built by the first");
        assertEquals(0.0, second.buildMillis());
        SquareMatrix b = random(17, 0.3, -1, 1, 4243);
        GeneratedKernelPermanent.Run other = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID).compute(b);
        assertRelative(new ChunkedJvmPermanent(2).accurate(b), other.value(), 1e-10, "another matrix gets its own kernel");
    }
}
