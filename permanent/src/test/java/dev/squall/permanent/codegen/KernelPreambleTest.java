package dev.squall.permanent.codegen;

import dev.squall.permanent.codegen.KernelSourceGenerator.Backend;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.KernelSignature;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The kernel header and the signature come from one parameter list, in the runtime's argument convention. */
class KernelPreambleTest {
    private static final List<KernelPreamble.Parameter> PS = List.of(KernelPreamble.array("x", DoubleArray.class, false),
            KernelPreamble.array("plan", LongArray.class, true), KernelPreamble.scalar("n", int.class));

    @Test
    void headersPassEachArrayWithItsLength() {
        assertEquals("__kernel void k(__global double* x, i64 x__len, __global const i64* plan, i64 plan__len, int n) {\n"
                + "  int t = (int) get_global_id(0);\n", KernelPreamble.kernelHeader(Backend.OPENCL, "k", "", PS));
        assertEquals("extern \"C\" __global__ void __launch_bounds__(128, 2) k(double* x, i64 x__len, const i64* __restrict__ plan, i64 plan__len, int n) {\n"
                + "  int t = (int) (blockIdx.x * blockDim.x + threadIdx.x);\n", KernelPreamble.kernelHeader(Backend.CUDA, "k", "__launch_bounds__(128, 2) ", PS));
    }

    @Test
    void theSignatureListsTheSameParameters() {
        KernelSignature s = KernelPreamble.signature(PS);
        assertTrue(s.isSpmd());
        assertEquals(List.of(new KernelSignature.Parameter("x", DoubleArray.class), new KernelSignature.Parameter("plan", LongArray.class),
                new KernelSignature.Parameter("n", int.class)), s.parameters());
    }

    @Test
    void theJvmHasNoGeneratedKernels() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelPreamble.backendOf(Devices.jvm()));
        assertTrue(e.getMessage().contains("jvm"), e.getMessage());
    }
}
