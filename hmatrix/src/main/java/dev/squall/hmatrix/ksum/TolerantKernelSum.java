package dev.squall.hmatrix.ksum;

import dev.squall.tasks.runtime.Precision;
import java.util.Locale;

/**
 * A kernel sum to a relative tolerance {@code eps}: picks the dense or the block-sparse product and says why.
 *
 * <p>The block-sparse product drops the pairs whose kernel value is below a threshold {@code tau}: the cutoff is the
 * distance where the kernel falls to {@code tau} ({@link PairKernel#radiusBelow}), the grid cells are half the cutoff
 * (no smaller than needed for about 64 points a cell). Its per-row bound {@code beta_i} on the dropped terms is then
 * checked against the result: the product is accepted when {@code beta_i <= eps/2 (|a_ic| - beta_i)} for every row
 * {@code i} and column {@code c}, which guarantees a relative error of at most {@code eps/2} in every entry, leaving the
 * other half of {@code eps} to rounding. The block-sparse product runs on the device end to end
 * ({@link GridBlockSparseSum}: clustering, ranges, sum) while the grid has at most {@link GridBlockSparseSum#MAX_CELLS}
 * cells, else with the host clustering of {@link BlockSparseSum}. When a row fails, {@code tau} shrinks by the worst row's shortfall (by 1000 when a row's bound exceeds its
 * value) and the product is redone (at most three times). The dense product is chosen when the cutoff reaches across the clouds'
 * bounding boxes (nothing would be dropped), when the block-sparse attempts would keep more than half of the pairs
 * (the dense kernel is then as fast), or when no attempt meets the test (rows whose sum nearly cancels).
 *
 * <pre>{@code
 * TolerantKernelSum.Outcome o = TolerantKernelSum.compute(engine, x, y, b, 1, 1e-6);
 * System.out.println(o.method() + ": " + o.reason());
 * }</pre>
 */
public final class TolerantKernelSum {
    private static final int ATTEMPTS = 3;
    private static final int POINTS_PER_CELL = 64;

    private TolerantKernelSum() {
    }

    /**
     * What was computed.
     *
     * @param method  {@code dense} or {@code block-sparse}
     * @param cutoff  the distance cutoff of the block-sparse product (NaN for dense)
     * @param cell    its grid cell size (NaN for dense)
     * @param reason  why this method, in words
     * @param result  the product
     */
    public record Outcome(String method, double cutoff, double cell, String reason, KernelSum.Result result) {
    }

    /**
     * {@code a = K b} to relative tolerance {@code eps} per entry (see the class description).
     *
     * @throws IllegalArgumentException if {@code eps} is not in {@code (0, 1)}, or is below what the precision can
     *                                  deliver (fp32: 1e-5)
     */
    public static Outcome compute(KernelSum engine, PointSet x, PointSet y, double[] b, int cols, double eps) {
        return compute(engine, x, y, b, cols, eps, 0);
    }

    /** As {@link #compute(KernelSum, PointSet, PointSet, double[], int, double)}, timing the kernels over {@code repeat} more runs. */
    public static Outcome compute(KernelSum engine, PointSet x, PointSet y, double[] b, int cols, double eps, int repeat) {
        if (!(eps > 0 && eps < 1)) throw new IllegalArgumentException("tolerance must be in (0, 1), got " + eps);
        if (engine.precision() == Precision.FP32 && eps < 1e-5) {
            throw new IllegalArgumentException("fp32 sums carry relative rounding errors near 1e-6; tolerance " + eps
                    + " needs --precision fp64");
        }
        if (engine.precision() == Precision.FP64 && eps < 1e-12) {
            throw new IllegalArgumentException("fp64 sums carry relative rounding errors near 1e-14; tolerance " + eps + " is below that");
        }
        PairKernel k = engine.kernel();
        if (k.isUser()) {
            return new Outcome("dense", Double.NaN, Double.NaN, "user kernel " + k + ": no decay bound, so nothing is dropped",
                    engine.apply(x, y, b, cols, repeat));
        }
        double[][] bx = x.bounds(), by = y.bounds();
        double reach = reach(bx, by);
        double tau = eps / 4;
        String history = "";
        try (Pipelines pipelines = new Pipelines(engine)) {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                double cutoff = k.radiusBelow(tau);
                if (cutoff >= reach) {
                    return new Outcome("dense", Double.NaN, Double.NaN, history + String.format(Locale.ROOT,
                            "%s falls to %.3g only at distance %.4g, beyond the clouds' reach %.4g: nothing can be dropped", k, tau, cutoff, reach),
                            engine.apply(x, y, b, cols, repeat));
                }
                double cell = Math.max(cutoff / 2, Math.max(extent(bx), extent(by)) * Math.pow((double) POINTS_PER_CELL / Math.max(x.size(), y.size()), 1.0 / x.dim()));
                KernelSum.Result r;
                String where;
                if (GridBlockSparseSum.fits(x, y, cell)) {
                    r = pipelines.forCell(cell).apply(x, y, b, cols, BlockSparseSum.KeepRule.withinTightBounds(cutoff), repeat).result();
                    where = "clustering, ranges and sum on the device";
                } else {
                    BlockSparseSum bs = BlockSparseSum.build(engine, x, y, Clustering.grid(x, cell, engine.device()), Clustering.grid(y, cell, engine.device()));
                    r = bs.apply(b, cols, BlockSparseSum.KeepRule.withinTightBounds(cutoff), repeat);
                    where = String.format(Locale.ROOT, "host clustering (%.3g grid cells, more than the device pipeline's %d)",
                            GridBlockSparseSum.cellCount(x, y, cell), GridBlockSparseSum.MAX_CELLS);
                }
                if (r.keptFraction() > 0.5) {
                    return new Outcome("dense", Double.NaN, Double.NaN, history + String.format(Locale.ROOT,
                            "cutoff %.4g (where %s falls to %.3g) keeps %.1f%% of the pairs: the dense product is as fast", cutoff, k, tau,
                            100 * r.keptFraction()), engine.apply(x, y, b, cols, repeat));
                }
                double worst = Double.POSITIVE_INFINITY;
                for (int i = 0; i < x.size(); i++) {
                    double beta = r.rowBounds()[i];
                    if (beta == 0) continue;
                    for (int c = 0; c < cols; c++) {
                        double allowed = eps / 2 * (Math.abs(r.values()[i * cols + c]) - beta);
                        worst = Math.min(worst, allowed / beta);
                    }
                }
                if (worst >= 1) {
                    return new Outcome("block-sparse", cutoff, cell, history + String.format(Locale.ROOT,
                            "dropping kernel values below %.3g (cutoff %.4g, cells %.4g) keeps %.2f%% of the pairs, and every row's bound "
                                    + "on the dropped terms is within eps/2 of its value; %s", tau, cutoff, cell, 100 * r.keptFraction(), where), r);
                }
                if (worst > 0) {
                    history += String.format(Locale.ROOT, "cutoff %.4g missed eps/2 on some row by a factor %.3g; ", cutoff, 1 / worst);
                    tau *= worst / 2;
                } else {
                    history += String.format(Locale.ROOT, "cutoff %.4g left some row's dropped-term bound above its value; ", cutoff);
                    tau *= 1e-3;
                }
            }
            return new Outcome("dense", Double.NaN, Double.NaN, history + "no block-sparse cutoff met the tolerance on every row",
                    engine.apply(x, y, b, cols, repeat));
        }
    }

    /** The device pipeline of the latest cell size, kept while attempts use the same cells (its device arrays are reused). */
    private static final class Pipelines implements AutoCloseable {
        private final KernelSum engine;
        private GridBlockSparseSum current;
        private double cell = Double.NaN;

        Pipelines(KernelSum engine) {
            this.engine = engine;
        }

        GridBlockSparseSum forCell(double c) {
            if (current == null || c != cell) {
                close();
                current = new GridBlockSparseSum(engine, c);
                cell = c;
            }
            return current;
        }

        @Override
        public void close() {
            if (current != null) current.close();
            current = null;
        }
    }

    /** The diagonal of the box holding both clouds' bounding boxes {@code {lo, hi}} (no pair is farther apart). */
    static double reach(double[][] bx, double[][] by) {
        double s = 0;
        for (int d = 0; d < bx[0].length; d++) {
            double lo = Math.min(bx[0][d], by[0][d]), hi = Math.max(bx[1][d], by[1][d]);
            s += (hi - lo) * (hi - lo);
        }
        return Math.sqrt(s);
    }

    /** The longest side of a bounding box {@code {lo, hi}}. */
    private static double extent(double[][] box) {
        double e = 0;
        for (int d = 0; d < box[0].length; d++) e = Math.max(e, box[1][d] - box[0][d]);
        return e;
    }
}
