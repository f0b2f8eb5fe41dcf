package dev.squall.permanent;

import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The Java example of permanent/README.md, verbatim in {@link #example()}: it compiles, runs, and its result is checked. */
class ReadmeExampleTest {
    static PermanentResult example() {
        // --- README example begins ---
        SquareMatrix a = RegressionMatrices.banded(30, 3);            // or SquareMatrix.read(Path.of("m.mtx"))
        PermanentResult r = new PermanentSolver()
                .device(Devices.jvm())                                // Devices.get("cuda:0") on a GPU
                .tolerance(1e-10)                                     // escalates until the error bound meets it, or throws
                .solve(a);
        System.out.println(r.scaled().toText() + " +- " + r.errorBound().toText() + " (" + r.errorKind() + ")");
        System.out.println(r.describeBlocks());                       // blocks, eliminations, expansions, methods
        for (PermanentResult.BlockReport b : r.blocks()) System.out.println(b.order() + ": " + b.method() + ", " + b.reason());
        // --- README example ends ---
        return r;
    }

    @Test
    void exampleRunsAndItsValueIsWithinItsBoundOfTheExactPermanent() {
        PermanentResult r = example();
        SquareMatrix a = RegressionMatrices.banded(30, 3);
        dev.squall.permanent.exact.Fraction exact = dev.squall.permanent.exact.RationalPermanent.of(a, false, true, 2).value();
        double want = exact.toScaled().toDouble();
        assertTrue(Math.abs(r.value() - want) <= r.errorBound().toDouble() + Math.ulp(want), r.value() + " vs exact " + want);
        assertTrue(r.errorBound().toDouble() <= 1e-10 * Math.abs(want), "the tolerance is met");
    }
}
