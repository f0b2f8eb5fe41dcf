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
 * @param sweepSeconds  time computing the blocks without kernel generation, builds and error estimates: the sweeps alone
 * @param preprocessMillis time of the decomposition and elimination
 * @param totalSeconds  everything
 * @param errorBound    absolute error of {@link #scaled}: rigorous, estimated, or the final rounding of an exact value
 * @param errorKind     "exact", "rigorous" (every block bounded) or "estimate" (some block estimated by re-computation)
 * @param exactValue    the exact permanent of the matrix's binary values when every block was computed exactly, else null
 * @param reasons       per block, why its method was chosen (or escalated to)
 * @param expansions    Laplace expansions along sparse rows/columns taken by preprocessing
 * @param leafBlocks    blocks in the expansion tree, counted once per term that uses them
 * @param blocks        per distinct block computed: order, method, uses, relative error, seconds, why
 * @param timings       where the time went
 */
public record PermanentResult(ScaledValue scaled, Reduction reduction, List<String> methodsUsed,
                              List<GeneratedKernelPermanent.Run> generated, long graySteps, double sweepSeconds,
                              double preprocessMillis, double totalSeconds, ScaledValue errorBound, String errorKind,
                              dev.squall.permanent.exact.Fraction exactValue, List<String> reasons, int expansions, int leafBlocks,
                              List<BlockReport> blocks, Timings timings) {
    /** One distinct block of the expansion tree and how it was computed; {@code uses}: terms it appears in. */
    public record BlockReport(int order, String method, int uses, double relativeError, double seconds, String reason) {
    }

    /**
     * Milliseconds per phase: exact preprocessing (split, elimination, expansion), the blocks' sweeps (everything below
     * included), of which the error estimates (after each sweep: on the device a device sweep ran on, else on the JVM
     * threads), kernel generation, kernel builds ({@code buildCached}: every build came
     * from the cache; null without generated kernels) and kernel launches with their read-backs (host wall time; of it,
     * {@code deviceKernelMs} the generated kernels' device time and {@code transferMs} their copies' device time, both
     * from device events); and the total. What the Gray-code error estimates cost against the sweeps they check:
     * {@code sweepMs} the first Ryser sweeps' own time (the JVM sweep, the generic kernels' call, or a generated kernel's launches without its build), {@code estimateFraction}
     * estimate over sweep time (null without a Ryser sweep), {@code estimateWorkFraction} the estimate's re-computed steps
     * weighted by their cost in double steps (double-double ~6, a drift step ~2) over the swept steps;
     * {@code estimateDeviceMs} the device time of the estimates re-computed on a device (device events; within
     * {@code estimateMs}, which adds their module load, copies and the host's combination).
     */
    public record Timings(double preprocessMs, double blocksMs, double estimateMs, double generateMs, double buildMs, Boolean buildCached,
                          double kernelMs, double totalMs, double deviceKernelMs, double transferMs, double sweepMs, Double estimateFraction,
                          Double estimateWorkFraction, double estimateDeviceMs) {
    }

    /** "3 blocks (2 x 15 by sparse@jvm, 1 x 12 by frontier@jvm), 2 expansions, 13 eliminated" style summary. */
    public String describeBlocks() {
        if (reduction.singular()) return "structurally singular (no perfect matching): permanent 0";
        java.util.Map<String, Integer> groups = new java.util.LinkedHashMap<>();
        blocks.stream().sorted(java.util.Comparator.comparingInt(BlockReport::order).reversed())
                .forEach(b -> groups.merge(b.order() + " by " + b.method(), b.uses(), Integer::sum));
        List<String> parts = groups.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey()).toList();
        return "block-triangular " + reduction.btfBlockSizes() + ", " + reduction.eliminated() + " row(s)/column(s) eliminated, " + expansions
                + " expansion(s); " + leafBlocks + " block(s) in all, " + blocks.size() + " distinct" + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
    }

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
