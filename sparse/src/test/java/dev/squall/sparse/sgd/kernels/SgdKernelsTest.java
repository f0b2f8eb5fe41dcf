package dev.squall.sparse.sgd.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.ShortArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * fp16 conversion on every device against the JDK's {@link Float#float16ToFloat} and {@link Float#floatToFloat16}
 * (IEEE binary16, round to nearest even): all 65,536 half values widened, and floats narrowed: every half exactly, the
 * midpoints between neighbouring halves (ties to even) and one float ulp either side, subnormals, overflow, random
 * floats over the whole exponent range, zeros, infinities, NaNs (any quiet NaN of the same sign).
 */
class SgdKernelsTest {
    @TestFactory
    Stream<DynamicTest> halfConversionIsBitExactOnEveryDevice() {
        short[] halves = new short[1 << 16];
        for (int b = 0; b < halves.length; b++) halves[b] = (short) b;
        float[] floats = narrowCases();
        List<DynamicTest> tests = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            tests.add(DynamicTest.dynamicTest(d.id() + " widen", () -> {
                float[] got = widen(d, halves);
                for (int b = 0; b < halves.length; b++) {
                    float want = Float.float16ToFloat(halves[b]);
                    if (Float.isNaN(want)) {
                        assertTrue(Float.isNaN(got[b]), "half 0x" + Integer.toHexString(b) + " -> " + got[b]);
                        assertEquals(Float.floatToRawIntBits(want) >>> 31, Float.floatToRawIntBits(got[b]) >>> 31, "NaN sign");
                    } else {
                        assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got[b]), "half 0x" + Integer.toHexString(b));
                    }
                }
            }));
            tests.add(DynamicTest.dynamicTest(d.id() + " narrow", () -> {
                short[] got = narrow(d, floats);
                for (int e = 0; e < floats.length; e++) {
                    short want = Float.floatToFloat16(floats[e]);
                    if (Float.isNaN(floats[e])) {
                        assertTrue(Float.isNaN(Float.float16ToFloat(got[e])), "NaN -> 0x" + Integer.toHexString(got[e] & 0xFFFF));
                        assertEquals(want & 0x8000, got[e] & 0x8000, "NaN sign");
                    } else {
                        float f = floats[e];
                        assertEquals(want, got[e], () -> "float " + f + " (0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")");
                    }
                }
            }));
        }
        return tests.stream();
    }

    private static float[] narrowCases() {
        List<Float> c = new ArrayList<>();
        for (int b = 0; b < 0x7C00; b++) {
            float lo = Float.float16ToFloat((short) b), hi = Float.float16ToFloat((short) (b + 1));
            float mid = (float) (((double) lo + hi) / 2);                    // exact in float: halves have 11 bits
            for (float v : new float[] {lo, mid, Math.nextDown(mid), Math.nextUp(mid)}) {
                c.add(v);
                c.add(-v);
            }
        }
        SplittableRandom r = new SplittableRandom(5);
        for (int t = 0; t < 100_000; t++) c.add(Float.intBitsToFloat(r.nextInt()));  // every exponent, NaNs included
        for (float v : new float[] {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, -Float.NaN, Float.MAX_VALUE,
                Float.MIN_VALUE, Float.MIN_NORMAL, 65504f, 65519.99f, 65520f, 1e6f, 0x1p-24f, 0x1p-25f, 0x1.000002p-25f, 0x1p-26f, 0x1.8p-24f}) {
            c.add(v);
            c.add(-v);
        }
        float[] out = new float[c.size()];
        for (int e = 0; e < out.length; e++) out[e] = c.get(e);
        return out;
    }

    private static float[] widen(Device d, short[] bits) {
        ShortArray src = ShortArray.fromArray(bits);
        FloatArray dst = new FloatArray(bits.length);
        TaskGraph g = new TaskGraph("widen").transferToDevice(DataTransferMode.FIRST_EXECUTION, src)
                .task("w", SgdKernels::widenHalf, src, dst, bits.length).transferToHost(DataTransferMode.EVERY_EXECUTION, dst);
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot())) {
            p.withDevice(d);
            p.execute();
        }
        return dst.toHeapArray();
    }

    private static short[] narrow(Device d, float[] v) {
        FloatArray src = FloatArray.fromArray(v);
        ShortArray dst = new ShortArray(v.length);
        TaskGraph g = new TaskGraph("narrow").transferToDevice(DataTransferMode.FIRST_EXECUTION, src)
                .task("n", SgdKernels::narrowToHalf, src, dst, v.length).transferToHost(DataTransferMode.EVERY_EXECUTION, dst);
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot())) {
            p.withDevice(d);
            p.execute();
        }
        return dst.toHeapArray();
    }
}
