package dev.squall.hmatrix.h2;

import java.util.Map;

/**
 * What {@link H2Matrix#compress} did: the tolerance, the estimated relative Frobenius error of the compressed matrix
 * against the one before (from the discarded singular values), memory before and after, the new ranks per level
 * (root first; the largest of each level's nodes, whose own ranks may be smaller), the wall time, the wall time of each step (on the device: {@code orthogonalise}, {@code project-orthogonal}
 * (couplings onto the orthonormal bases), {@code basis-generation} (Gram matrices), {@code truncate} (SVDs, new bases),
 * {@code project-truncated}; the host comparison path has {@code download} and no {@code basis-generation}), and the flops and
 * device time of the two coupling projections, which run as batched GEMMs when {@code projectionGemm}, and where each
 * step's time went ({@code parts}, device path only: per plan name, see {@link Part}).
 *
 * <pre>{@code
 * H2CompressionReport r = a.compress(1e-6);
 * System.out.println(r.memoryBefore().total() + " -> " + r.memoryAfter().total() + " bytes, error ~ " + r.relativeErrorEstimate());
 * }</pre>
 */
public record H2CompressionReport(double tolerance, double relativeErrorEstimate, H2Memory memoryBefore, H2Memory memoryAfter,
        int[] rowRanks, int[] colRanks, double millis, Map<String, Double> stepMillis, double projectionFlops,
        double projectionDeviceMillis, boolean projectionGemm, Map<String, Part> parts) {
    /**
     * One part of a step ({@code step/plan}, or {@code step/host} for the step's time outside its plans): the plans
     * run, their wall time, the time preparing them (kernel builds or loads, launch binding) and the device time
     * from their first to their last kernel, in ms.
     */
    public record Part(int plans, double wallMillis, double prepareMillis, double kernelMillis) {
    }


    /** GFLOP/s of the coupling projections on the device (device time of their kernels). */
    public double projectionGflops() {
        return projectionDeviceMillis > 0 ? projectionFlops / (projectionDeviceMillis * 1e-3) / 1e9 : 0;
    }
}
