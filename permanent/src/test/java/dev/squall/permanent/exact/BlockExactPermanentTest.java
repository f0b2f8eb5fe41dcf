package dev.squall.permanent.exact;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class BlockExactPermanentTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Two random diagonal blocks, a random lower-left coupling, rows and columns shuffled. */
    static SquareMatrix blockTriangular(SquareMatrix b1, SquareMatrix b2, long seed) {
        int n1 = b1.n(), n = n1 + b2.n();
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int i = 0; i < n1; i++) for (int j = 0; j < n1; j++) v[i * n + j] = b1.get(i, j);
        for (int i = 0; i < b2.n(); i++) for (int j = 0; j < b2.n(); j++) v[(n1 + i) * n + n1 + j] = b2.get(i, j);
        for (int i = n1; i < n; i++) for (int j = 0; j < n1; j++) if (r.nextDouble() < 0.3) v[i * n + j] = 1;
        int[] rows = shuffled(n, r), cols = shuffled(n, r);
        return SquareMatrix.of(n, v).permute(rows, cols);
    }

    static int[] shuffled(int n, Random r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int k = r.nextInt(i + 1), t = p[i];
            p[i] = p[k];
            p[k] = t;
        }
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void blockTriangularProductOnEveryDevice(Device d) {
        SquareMatrix b1 = randomBinary(10, 0.5, 71), b2 = randomBinary(12, 0.45, 72);
        SquareMatrix a = blockTriangular(b1, b2, 73);
        BigInteger want = ryserBig(b1).multiply(ryserBig(b2));
        assertTrue(want.signum() > 0, "nonsingular blocks");
        assertEquals(want, matchings(a), "the reference itself: DP over the whole matrix");
        BlockExactPermanent.Outcome o = BlockExactPermanent.of(a, new BinaryKernelPermanent(d)::compute);
        assertTrue(o.result().exact());
        assertEquals(want, o.result().value(), "on " + d.id());
        assertEquals(22, o.blockSizes().stream().mapToInt(Integer::intValue).sum());
        assertTrue(o.blockSizes().size() >= 2, "blocks " + o.blockSizes());
    }

    @Test
    void productBeyond64BitsStaysExactAndSingularIsZero() {
        // 70x70: J_5 fourteen times on the diagonal: 120^14 ~ 1.3e29, far above 2^64, every block exact
        int n = 70;
        double[] v = new double[n * n];
        for (int b = 0; b < 14; b++) for (int i = 0; i < 5; i++) for (int j = 0; j < 5; j++) v[(5 * b + i) * n + 5 * b + j] = 1;
        BlockExactPermanent.Outcome o = BlockExactPermanent.of(SquareMatrix.of(n, v), new BinaryPermanent(2)::of);
        assertTrue(o.result().exact());
        assertEquals(BigInteger.valueOf(120).pow(14), o.result().value());
        assertEquals(14, o.blockSizes().size());
        SquareMatrix reducible = SquareMatrix.of(3, new double[] {1, 1, 0, 1, 1, 0, 1, 1, 1}); // blocks {0,1} and {2}: perm = 2
        assertEquals(ryserBig(reducible), BlockExactPermanent.of(reducible, new BinaryPermanent(2)::of).result().value());
        SquareMatrix zeroColumn = SquareMatrix.of(3, new double[] {1, 1, 0, 1, 1, 0, 1, 1, 0});
        BlockExactPermanent.Outcome z = BlockExactPermanent.of(zeroColumn, new BinaryPermanent(2)::of);
        assertEquals(BigInteger.ZERO, z.result().value());
        assertTrue(z.result().exact());
        assertTrue(z.blockSizes().isEmpty());
    }

    @Test
    void aResidueBlockMakesTheProductAResidue() {
        // J_21 (21! > 2^64: a residue on the 64-bit kernel) beside J_3: the product is known mod 2^64
        int n = 24;
        double[] v = new double[n * n];
        for (int i = 0; i < 21; i++) for (int j = 0; j < 21; j++) v[i * n + j] = 1;
        for (int i = 21; i < 24; i++) for (int j = 21; j < 24; j++) v[i * n + j] = 1;
        BlockExactPermanent.Outcome o = BlockExactPermanent.of(SquareMatrix.of(n, v), new BinaryKernelPermanent(dev.squall.tasks.runtime.Devices.jvm())::compute);
        assertFalse(o.result().exact());
        assertEquals(factorial(21).multiply(BigInteger.valueOf(6)).mod(BigInteger.ONE.shiftLeft(64)), o.result().value());
    }
}
