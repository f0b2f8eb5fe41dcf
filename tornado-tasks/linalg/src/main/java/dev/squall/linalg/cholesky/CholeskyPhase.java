package dev.squall.linalg.cholesky;

import java.util.EnumSet;
import java.util.Set;

/**
 * The phases of {@link BlockedCholesky}'s outer steps, for profiling: a launch sequence built with
 * a subset of the phases holds only their launches (same sizes, same order), so its device time is
 * the time those phases take in the full factorisation.
 *
 * <pre>{@code
 * BlockedCholesky.append(seq, work, n, info, 256, EnumSet.of(CholeskyPhase.TRAILING_UPDATE));
 * }</pre>
 */
public enum CholeskyPhase {
    /** Copies of the input's lower triangle and of each outer step's solved panel back into the matrix. */
    COPY,
    /**
     * Factoring each outer diagonal block (recursively: per 64-column step one fused factor and
     * panel-solve launch and a trailing GEMM); where the whole matrix goes in 64-column steps
     * ({@code n <= 2 * outer}), the fused launches.
     */
    DIAGONAL_FACTOR,
    /** Stan's triangular inverse of each factored outer diagonal block. */
    DIAGONAL_INVERSE,
    /** {@code L21 = A21 L11^-T}, one GEMM per outer step (64-column steps solve in their fused launch). */
    PANEL_SOLVE,
    /** {@code A22 -= L21 L21^T} on the lower triangle, one GEMM per step. */
    TRAILING_UPDATE;

    /** Every phase: the complete factorisation. */
    public static Set<CholeskyPhase> all() {
        return EnumSet.allOf(CholeskyPhase.class);
    }

    /** Lower-case name with dashes, as printed by {@code squall cholesky --profile}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
