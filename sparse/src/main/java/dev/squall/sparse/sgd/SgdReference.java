package dev.squall.sparse.sgd;

/**
 * The sequential reference: applies the SGD update to each rating of a schedule in the schedule's order, in float,
 * with the formula of the kernels ({@link dev.squall.sparse.sgd.kernels.SgdKernels}). A conflict-free schedule run
 * in parallel must give the same factors, up to rounding (devices may fuse multiply-adds).
 */
public final class SgdReference {
    private SgdReference() {
    }

    /** One pass over {@code s}'s order of {@code r}, updating {@code f} in place. */
    public static void pass(Ratings r, Schedule s, Factors f, float lr, float reg, float regBias) {
        int k = f.rank();
        float[] w = f.w(), h = f.h(), bu = f.userBias(), bi = f.itemBias();
        float mean = f.mean();
        for (int e : s.order()) {
            int u = r.user(e), i = r.item(e);
            float dot = 0f;
            for (int q = 0; q < k; q++) dot += w[u * k + q] * h[i * k + q];
            float pred = mean + dot;
            if (bu != null) pred = pred + bu[u] + bi[i];
            float err = r.value(e) - pred;
            for (int q = 0; q < k; q++) {
                float wf = w[u * k + q], hf = h[i * k + q];
                w[u * k + q] = wf + lr * (err * hf - reg * wf);
                h[i * k + q] = hf + lr * (err * wf - reg * hf);
            }
            if (bu != null) {
                bu[u] = bu[u] + lr * (err - regBias * bu[u]);
                bi[i] = bi[i] + lr * (err - regBias * bi[i]);
            }
        }
    }
}
