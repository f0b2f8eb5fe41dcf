package dev.squall.permanent.codegen;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Which rows of x live in registers (Elbek and Kaya, Algorithm 4, as read here): with the columns
 * ordered ({@link ColumnOrdering}), the rows touched by the first {@code c} columns are kept in
 * registers and the other rows that some column changes live in global memory; rows that no
 * column {@code < n-1} changes are constant and fold into one literal factor. Column {@code j}
 * changes in a fraction {@code 2^-(j+1)} of the steps, so a step costs about
 * {@code regCost = 2 nReg (1 - 2^-c)} register operations plus {@code globCost = 16 nGlob 2^-c}
 * for global updates and the product over global rows; more registers per work-item mean fewer
 * resident work-items ({@code 65536 / (2 nReg + 32)} per multiprocessor, at most 2048).
 * The partition maximises {@code residentThreads / (regCost + globCost)}.
 *
 * <pre>{@code
 * HybridPartition p = HybridPartition.choose(ordered);       // hybrid
 * HybridPartition q = HybridPartition.allRegisters(ordered); // PureReg
 * }</pre>
 *
 * @param registerColumns {@code c}: columns {@code [0, c)} touch only register rows
 * @param rowKind         per row: {@link #REGISTER}, {@link #GLOBAL} or {@link #CONSTANT}
 */
public record HybridPartition(int registerColumns, int[] rowKind) {
    public static final int REGISTER = 0, GLOBAL = 1, CONSTANT = 2;

    /** PureReg: every changing row in registers. */
    public static HybridPartition allRegisters(SquareMatrix a) {
        return withRegisterColumns(a, Math.max(0, a.n() - 1));
    }

    /** The partition keeping the rows of columns {@code [0, c)} in registers. */
    public static HybridPartition withRegisterColumns(SquareMatrix a, int c) {
        int n = a.n();
        if (c < 0 || c > Math.max(0, n - 1)) throw new IllegalArgumentException("register columns " + c + " outside [0, " + (n - 1) + "]");
        int[] kind = new int[n];
        java.util.Arrays.fill(kind, CONSTANT);
        for (int j = n - 2; j >= 0; j--) {
            for (int i = 0; i < n; i++) {
                if (a.get(i, j) != 0) kind[i] = j < c ? REGISTER : (kind[i] == REGISTER ? REGISTER : GLOBAL);
            }
        }
        return new HybridPartition(c, kind);
    }

    /** The hybrid partition with the best {@linkplain #modelledThroughput modelled throughput}. */
    public static HybridPartition choose(SquareMatrix a) {
        int n = a.n();
        HybridPartition best = allRegisters(a);
        double bestScore = modelledThroughput(a, best);
        for (int c = 1; c < n - 1; c++) {
            HybridPartition p = withRegisterColumns(a, c);
            double s = modelledThroughput(a, p);
            if (s > bestScore) {
                best = p;
                bestScore = s;
            }
        }
        return best;
    }

    public int count(int kind) {
        int k = 0;
        for (int r : rowKind) if (r == kind) k++;
        return k;
    }

    /**
     * Modelled throughput of the generated kernel (higher is better; see {@code permanent/PERF.md}):
     * FP64 instructions per step = cached-level multiplies ({@link ProductLevels}) + x updates +
     * 1 accumulation + the block head's overhead spread over the block + the cold steps'
     * global-memory work {@code 2^-c (8 nGlob + 300)}; divided into the resident work-items per
     * multiprocessor ({@code 65536 / (2 nReg + 2 levels + 40)} registers, counted up to 1024:
     * beyond that, more warps no longer hide latency).
     */
    public static double modelledThroughput(SquareMatrix a, HybridPartition p) {
        int n = a.n();
        ProductLevels lv = ProductLevels.of(a, p);
        double updates = 0;
        for (int j = 0; j < n - 1; j++) {
            int d = 0;
            for (int i = 0; i < n; i++) if (a.get(i, j) != 0) d++;
            updates += Math.pow(2, -(j + 1)) * d;
        }
        int unroll = 1 << KernelSourceGenerator.effectiveUnrollLog2(p, KernelSourceGenerator.Options.forMatrix(a));
        double cold = Math.pow(2, -p.registerColumns()) * (8.0 * p.count(GLOBAL) + 300);
        double cost = lv.expectedMultipliesPerStep() + updates + 1 + 40.0 / unroll + cold;
        int regs = (2 * p.count(REGISTER) + 2 * lv.levels() + 40 + 7) / 8 * 8;
        double resident = Math.min(1024, Math.floor(65536.0 / regs / 128) * 128);
        return resident / cost;
    }
}
