package dev.squall.permanent;

import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.permanent.preprocess.Reduction;

import java.util.List;

/**
 * A computed permanent with how it was obtained.
 *
 * @param scaled        the value as mantissa * 2^exponent (exact range, even beyond double)
 * @param reduction     the preprocessing: blocks found, rows/columns eliminated
 * @param methodsUsed   per Gray-code block, "method@device"
 * @param generated     generated-kernel runs (generation and build times, registers), if any
 * @param graySteps     Gray-code steps over all blocks
 * @param sweepSeconds  time in the Gray-code phase (including generation and builds)
 * @param preprocessMillis time of the decomposition and elimination
 * @param totalSeconds  everything
 * @param errorBound    absolute error of {@link #scaled}: rigorous, estimated, or the final rounding of an exact value
 * @param errorKind     "exact", "rigorous" (every block bounded) or "estimate" (some block estimated by re-computation)
 * @param exactValue    the exact permanent of the matrix's binary values when every block was computed exactly, else null
 * @param reasons       per block, why its method was chosen (or escalated to)
 */
public record PermanentResult(ScaledValue scaled, Reduction reduction, List<String> methodsUsed,
                              List<GeneratedKernelPermanent.Run> generated, long graySteps, double sweepSeconds,
                              double preprocessMillis, double totalSeconds, ScaledValue errorBound, String errorKind,
                              dev.squall.permanent.exact.Fraction exactValue, List<String> reasons) {
    /** The permanent as a double; ±Infinity (or 0) when it leaves the double range, see {@link #outsideDoubleRange()}. */
    public double value() {
        return scaled.toDouble();
    }

    public boolean outsideDoubleRange() {
        return scaled.outsideDoubleRange();
    }

    /** Gray-code steps per second of the sweep phase (0 when there was nothing to sweep). */
    public double stepsPerSecond() {
        return sweepSeconds > 0 ? graySteps / sweepSeconds : 0;
    }
}
