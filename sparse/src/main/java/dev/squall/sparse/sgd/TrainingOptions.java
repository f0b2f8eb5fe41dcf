package dev.squall.sparse.sgd;

/**
 * Hyper-parameters of SGD training: rank {@code k} (1..512), initial learning rate, its decay (epoch {@code e} uses
 * {@code lr / (1 + decay e)}), regularisation of the factors and of the biases, whether biases are learnt, and the
 * seed of the initial factors.
 */
public record TrainingOptions(int rank, double lr, double decay, double reg, double regBias, boolean biases, long seed) {
    /** Largest supported rank. */
    public static final int MAX_RANK = 512;

    public TrainingOptions {
        if (rank < 1 || rank > MAX_RANK) throw new IllegalArgumentException("--rank " + rank + " must be in 1.." + MAX_RANK);
        if (!(lr > 0) || !Double.isFinite(lr)) throw new IllegalArgumentException("--lr " + lr + " must be a positive number");
        if (!(decay >= 0) || !Double.isFinite(decay)) throw new IllegalArgumentException("--lr-decay " + decay + " must be at least 0");
        if (!(reg >= 0) || !Double.isFinite(reg)) throw new IllegalArgumentException("--reg " + reg + " must be at least 0");
        if (!(regBias >= 0) || !Double.isFinite(regBias)) throw new IllegalArgumentException("bias regularisation " + regBias + " must be at least 0");
    }

    /** The default initial learning rate: large, so that users with few ratings converge in a few epochs. */
    public static final double DEFAULT_LR = 0.05;
    /** The default decay: fast, so that the SGD noise (about {@code 1.4 lr} of test MSE on unit-variance data) dies out. */
    public static final double DEFAULT_DECAY = 0.5;
    /** The default regularisation: strong enough that spare features (rank above the data's) do not fit noise. */
    public static final double DEFAULT_REG = 0.03;

    /**
     * Rank {@code k}, learning rate {@link #DEFAULT_LR} decaying by {@link #DEFAULT_DECAY} an epoch, regularisation
     * {@link #DEFAULT_REG}, no biases, seed 1 (the choice is derived in sparse/SGD.md, "Convergence").
     */
    public static TrainingOptions defaults(int rank) {
        return new TrainingOptions(rank, DEFAULT_LR, DEFAULT_DECAY, DEFAULT_REG, 0.01, false, 1);
    }

    /** The learning rate of epoch {@code e} (0-based). */
    public float learningRate(int e) {
        return (float) (lr / (1 + decay * e));
    }

    public TrainingOptions withLr(double v) {
        return new TrainingOptions(rank, v, decay, reg, regBias, biases, seed);
    }

    public TrainingOptions withDecay(double v) {
        return new TrainingOptions(rank, lr, v, reg, regBias, biases, seed);
    }

    public TrainingOptions withReg(double v) {
        return new TrainingOptions(rank, lr, decay, v, regBias, biases, seed);
    }

    public TrainingOptions withBiases(boolean v) {
        return new TrainingOptions(rank, lr, decay, reg, regBias, v, seed);
    }
}
