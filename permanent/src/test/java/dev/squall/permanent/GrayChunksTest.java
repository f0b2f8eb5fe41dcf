package dev.squall.permanent;

import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.GenericKernelPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class GrayChunksTest {
    static List<Device> devices() {
        return TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).toList();
    }

    /** Chunks run in any order on the JVM and summed in chunk order give ChunkedJvmPermanent's value bit for bit. */
    @Test
    void jvmChunksEqualChunkedJvmPermanentBitForBit() {
        SquareMatrix a = random(16, 0.7, -1, 1, 99);
        for (Method m : new Method[] {Method.DENSE, Method.SPARSE}) {
            GrayChunks chunks = new GrayChunks(Devices.jvm(), m).threads(3);
            List<long[]> cut = GrayChunks.cut(16, 8);
            assertEquals(8, cut.size());
            double[][] partials = new double[cut.size()][];
            List<Integer> order = new ArrayList<>();
            for (int c = 0; c < cut.size(); c++) order.add(c);
            Collections.shuffle(order, new java.util.Random(5));
            for (int c : order) partials[c] = chunks.partials(a, cut.get(c)[0], cut.get(c)[1]);
            double whole = m == Method.DENSE ? new ChunkedJvmPermanent(2).dense(a) : new ChunkedJvmPermanent(2).sparse(a);
            assertEquals(Double.doubleToLongBits(whole), Double.doubleToLongBits(GrayChunks.permanent(16, List.of(partials))), m.cliName());
        }
        assertRelative(factorial(13).doubleValue(), sumOfChunks(new GrayChunks(Devices.jvm(), Method.DENSE), ones(13), 4), 1e-13, "J_13");
    }

    @Test
    void cutGivesAlignedPowerOfTwoChunksCoveringAllSteps() {
        List<long[]> cut = GrayChunks.cut(10, 6); // rounded up to 8 chunks of 64 steps
        assertEquals(8, cut.size());
        for (int c = 0; c < 8; c++) assertArrayEquals(new long[] {64L * c, 64L * (c + 1)}, cut.get(c));
        assertEquals(1, GrayChunks.cut(1, 16).size(), "one step only");
        assertThrows(IllegalArgumentException.class, () -> GrayChunks.cut(10, 0));
    }

    @Test
    void badChunksAndMethodsAreRejected() {
        SquareMatrix a = ones(10);
        GrayChunks jvm = new GrayChunks(Devices.jvm(), Method.DENSE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> jvm.partials(a, 64, 192));
        assertTrue(e.getMessage().contains("multiple of 128"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> jvm.partials(a, 0, 513));
        assertThrows(IllegalArgumentException.class, () -> new GrayChunks(Devices.jvm(), Method.CODEGEN_HYBRID));
        assertThrows(IllegalArgumentException.class, () -> new GrayChunks(Devices.jvm(), Method.AUTO));
    }

    /** On a device: the whole range as one chunk is the kernel's own value bit for bit; chunks agree with the exact value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void deviceChunksMatchWholeRunAndExactValue(Device d) {
        SquareMatrix a = randomDyadic(15, 0.6, 31);
        double exact = exactDyadic(a);
        long steps = NijenhuisWilf.steps(15);
        double[] whole = new GrayChunks(d, Method.DENSE).partials(a, 0, steps);
        assertEquals(new GenericKernelPermanent(d, false).compute(a), NijenhuisWilf.finalFactor(15) * (whole[0] + whole[1]), 0.0, "generic whole range");
        for (Method m : new Method[] {Method.DENSE, Method.SPARSE, Method.CODEGEN_HYBRID}) {
            assertRelative(exact, sumOfChunks(new GrayChunks(d, m), a, 8), 1e-10, m.cliName() + " in 8 chunks on " + d.id());
        }
        GeneratedKernelPermanent.Run run = new GeneratedKernelPermanent(d, GeneratedKernelPermanent.Variant.HYBRID).compute(a);
        double[] gen = new GrayChunks(d, Method.CODEGEN_HYBRID).partials(a, 0, steps);
        assertEquals(run.value(), NijenhuisWilf.finalFactor(15) * (gen[0] + gen[1]), 0.0, "generated whole range");
    }

    private static double sumOfChunks(GrayChunks chunks, SquareMatrix a, int count) {
        List<double[]> parts = new ArrayList<>();
        for (long[] c : GrayChunks.cut(a.n(), count)) parts.add(chunks.partials(a, c[0], c[1]));
        return GrayChunks.permanent(a.n(), parts);
    }
}
