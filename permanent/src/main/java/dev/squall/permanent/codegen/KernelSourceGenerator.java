package dev.squall.permanent.codegen;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.KernelSignature;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Generates a per-matrix Gray-code permanent kernel in OpenCL C or CUDA C (Elbek and Kaya's
 * CodeGen, extended): the matrix values become literals, the register rows of x become named
 * scalars {@code r0, r1, ...}, and global rows ({@link HybridPartition#GLOBAL}) live at
 * {@code xg[t * nGlob + k]}. Literals are printed with Java's shortest round-trip
 * representation, so the device sees exactly the matrix's doubles (row scaling included: the
 * solver generates from the scaled matrix).
 *
 * <p>Two things make a step cheap (see {@code permanent/PERF.md}):
 * <ul>
 * <li>cached level products ({@link ProductLevels}): a step on column j recomputes only the
 *     suffix products {@code d<l>} of the levels its rows can belong to, each level's rows as a
 *     balanced multiply tree; {@code gp} (global and constant rows) changes only on steps on
 *     columns {@code >= registerColumns};</li>
 * <li>unrolled blocks of {@code U = 2^k} steps: the launch plan's chunks are aligned, so inside a
 *     block starting at a multiple of U step m changes column ctz(m) with the sign of bit
 *     ctz(m)+1 of m — both known when generating (bit k, for m = U/2, is read once per block).
 *     Only the block's first step dispatches on the column through a {@code switch}; the other
 *     U-1 steps are straight-line code with literal {@code +=}/{@code -=} and static term signs.</li>
 * </ul>
 * Terms are summed plainly within a block (even and odd steps apart) and each block's sum enters a
 * branch-free TwoSum (Knuth) into {@code (sum, comp)}.
 *
 * <p>Kernel signature (both backends, {@link #SIGNATURE}; each array followed by its length, as the runtime
 * passes arrays): {@code perm_gen(double* xg, const long* plan, double* partials, int threads)};
 * {@code plan = {offset, delta, end}} as in
 * {@link dev.squall.permanent.kernel.LaunchPlan}; work-item t writes its compensated partial to
 * {@code partials[2t], partials[2t+1]}.
 *
 * <pre>{@code
 * String cu = KernelSourceGenerator.generate(ordered, HybridPartition.choose(ordered), Backend.CUDA);
 * }</pre>
 */
public final class KernelSourceGenerator {
    /** Target language. */
    public enum Backend { OPENCL, CUDA }

    /**
     * Code-shape choices.
     *
     * @param unrollLog2       k: blocks of 2^k statically unrolled steps (capped by the register columns)
     * @param minBlocksPerSm   CUDA {@code __launch_bounds__(128, B)}; 0 leaves registers to the compiler
     * @param restartLog2      a work-item rebuilds x from the matrix every 2^r steps of its chunk (0: never), so the
     *                         rounding x picks up from its updates drifts over at most 2^r steps; rebuilding costs
     *                         ~n^2 additions, 0.1-0.3% of 2^16 steps at n = 40
     */
    public record Options(int unrollLog2, int minBlocksPerSm, int restartLog2) {
        public Options {
            if (unrollLog2 < 0 || unrollLog2 > 6) throw new IllegalArgumentException("unroll 2^" + unrollLog2 + " outside 2^0..2^6");
            if (minBlocksPerSm < 0 || minBlocksPerSm > 16) throw new IllegalArgumentException("min blocks per SM " + minBlocksPerSm + " outside 0..16");
            if (restartLog2 != 0 && (restartLog2 < unrollLog2 || restartLog2 > 62)) {
                throw new IllegalArgumentException("restart every 2^" + restartLog2 + " steps: must be 0 (never) or 2^" + unrollLog2 + "..2^62");
            }
        }

        public Options(int unrollLog2, int minBlocksPerSm) {
            this(unrollLog2, minBlocksPerSm, 0);
        }

        /** k = 5 (32-step blocks) for sparse columns, 4 when the average column has more than 8 nonzeros (code size); x rebuilt every 2^16 steps. */
        public static Options forMatrix(SquareMatrix a) {
            return new Options(a.nonzeros() <= 8L * a.n() ? 5 : 4, 0, DEFAULT_RESTART_LOG2);
        }
    }

    /** log2 of the steps after which a work-item of the generated kernels rebuilds x by default. */
    public static final int DEFAULT_RESTART_LOG2 = 16;

    public static final String KERNEL_NAME = "perm_gen";
    /** The kernel's parameters: global rows of x per work-item, the launch plan {offset, delta, end}, the partial sums, the work-item count. */
    static final List<KernelPreamble.Parameter> PARAMETERS = List.of(KernelPreamble.array("xg", DoubleArray.class, false),
            KernelPreamble.array("plan", LongArray.class, true), KernelPreamble.array("partials", DoubleArray.class, false),
            KernelPreamble.scalar("threads", int.class));
    /** What the runtime checks a task running the kernel against. */
    public static final KernelSignature SIGNATURE = KernelPreamble.signature(PARAMETERS);
    /** Work-items per work-group the generated kernels are launched with on CUDA (used by the launch bounds). */
    public static final int CUDA_BLOCK = 128;

    private KernelSourceGenerator() {
    }

    public static String generate(SquareMatrix a, HybridPartition part, Backend backend) {
        return generate(a, part, backend, Options.forMatrix(a));
    }

    /** The unroll exponent actually used: k, but no more than the register columns (static steps must not touch global rows). */
    public static int effectiveUnrollLog2(HybridPartition part, Options o) {
        return Math.min(o.unrollLog2(), part.registerColumns());
    }

    public static String generate(SquareMatrix a, HybridPartition part, Backend backend, Options options) {
        int n = a.n();
        NijenhuisWilf.checkOrder(n);
        double[] x0 = NijenhuisWilf.startVector(a, 0);
        int[] kind = part.rowKind();
        int[] slot = new int[n];
        int nGlob = 0;
        for (int i = 0; i < n; i++) if (kind[i] == HybridPartition.GLOBAL) slot[i] = nGlob++;
        ProductLevels lv = ProductLevels.of(a, part);
        int k = effectiveUnrollLog2(part, options);
        int unroll = 1 << k;
        boolean cuda = backend == Backend.CUDA;
        String gq = KernelPreamble.global(backend);
        StringBuilder s = new StringBuilder(8192 + 64 * a.nonzeros() * (unroll + 2));
        s.append("// Generated by squall-permanent for one ").append(n).append("x").append(n).append(" matrix with ")
                .append(a.nonzeros()).append(" nonzeros: ").append(part.count(HybridPartition.REGISTER)).append(" register rows in ")
                .append(lv.levels()).append(" levels, ").append(nGlob).append(" global rows, ").append(part.count(HybridPartition.CONSTANT))
                .append(" constant rows, ").append(part.registerColumns()).append(" register columns, blocks of ").append(unroll)
                .append(" steps; modelled multiplies per step ").append(String.format(Locale.ROOT, "%.2f", lv.expectedMultipliesPerStep())).append(".\n");
        double constant = 1.0;
        for (int i = 0; i < n; i++) if (kind[i] == HybridPartition.CONSTANT) constant *= x0[i];
        String cf = lit(constant);
        // product of the global rows, 4 loads per iteration of a rolled loop: a balanced tree over all
        // of them would keep every load in flight at once and set the whole kernel's register count
        String globalProduct = "  double p = " + cf + ";\n  int k = 0;\n#pragma unroll 1\n"
                + "  for (; k + 4 <= " + nGlob + "; k += 4) p *= (xt[k] * xt[k + 1]) * (xt[k + 2] * xt[k + 3]);\n"
                + "#pragma unroll 1\n  for (; k < " + nGlob + "; k++) p *= xt[k];\n  return p;\n}\n";
        s.append(KernelPreamble.types(backend, true));
        s.append(KernelPreamble.deviceFunction(backend)).append("double global_product(").append(gq).append("const double* xt) {\n").append(globalProduct);
        String bounds = cuda && options.minBlocksPerSm() > 0 ? "__launch_bounds__(" + CUDA_BLOCK + ", " + options.minBlocksPerSm() + ") " : "";
        s.append(KernelPreamble.kernelHeader(backend, KERNEL_NAME, bounds, PARAMETERS));
        s.append("  if (t >= threads) return;\n");
        s.append("  i64 first = plan[0] + (i64) t * plan[1];\n");
        s.append("  i64 last = first + plan[1]; if (last > plan[2]) last = plan[2];\n");
        // global rows of one work-item lie together: constant offsets, no per-row address registers
        // (they are touched only on the rare cold steps, so coalescing matters little)
        s.append("  ").append(gq).append("double* xt = xg + (i64) t * ").append(Math.max(1, nGlob)).append(";\n");
        s.append("  double sum = 0.0, comp = 0.0;\n");
        StringBuilder regs = new StringBuilder();
        for (int i = 0; i < n; i++) if (kind[i] == HybridPartition.REGISTER) regs.append(regs.isEmpty() ? "" : ", ").append("r").append(i);
        if (!regs.isEmpty()) s.append("  double ").append(regs).append(";\n");
        for (int l = lv.levels() - 1; l >= 1; l--) s.append("  double d").append(l).append(";\n");
        s.append("  double P, gp;\n");
        // segments of 2^r steps (aligned: the chunk starts at a multiple of its power-of-two length), each from a fresh x
        String segment = options.restartLog2() == 0 ? "last - first" : "(i64) " + (1L << options.restartLog2());
        s.append("#pragma unroll 1\n");
        s.append("  for (i64 start = first; start < last; start += ").append(segment).append(") {\n");
        s.append("    i64 end = start + ").append(segment).append("; if (end > last) end = last;\n");
        // start vector x^(start): row by row, adding the columns whose bit is set in gray(start); a global
        // row is stored and multiplied into gp at once, so only one of them is live at a time
        s.append("    i64 code = start ^ (start >> 1);\n");
        s.append("    gp = ").append(cf).append(";\n");
        for (int i = 0; i < n; i++) {
            if (kind[i] == HybridPartition.CONSTANT) continue;
            String v = kind[i] == HybridPartition.REGISTER ? "r" + i : "q";
            s.append("    ").append(kind[i] == HybridPartition.REGISTER ? v : "{ double q").append(" = ").append(lit(x0[i])).append(";");
            for (int j = 0; j < n - 1; j++) {
                double a_ij = a.get(i, j);
                if (a_ij != 0) s.append(" if ((code >> ").append(j).append(") & 1) ").append(v).append(" += ").append(lit(a_ij)).append(';');
            }
            if (kind[i] == HybridPartition.GLOBAL) s.append(" xt[").append(slot[i]).append("] = q; gp *= q; }");
            s.append('\n');
        }
        s.append("    ").append(levelProducts(lv, lv.levels() - 1)).append("\n");
        s.append("    { double acc = (start & 1) ? -P : P; double ts = sum + acc; double bb = ts - sum; comp += (sum - (ts - bb)) + (acc - bb); sum = ts; }\n");
        s.append("    for (i64 g = start + 1; g < end; ) {\n");
        s.append("      int j = CTZ(g);\n");
        s.append("      double s = ((g >> (j + 1)) & 1) ? -1.0 : 1.0;\n");
        s.append("      switch (j) {\n");
        for (int j = 0; j < n - 1; j++) {
            s.append("        case ").append(j).append(":");
            for (int i = 0; i < n; i++) {
                double v = a.get(i, j);
                if (v == 0) continue;
                if (kind[i] == HybridPartition.REGISTER) {
                    s.append(" r").append(i).append(" = fma(s, ").append(lit(v)).append(", r").append(i).append(");");
                } else {
                    s.append(" xt[").append(slot[i]).append("] = fma(s, ").append(lit(v)).append(", xt[").append(slot[i]).append("]);");
                }
            }
            if (lv.isColdColumn(j) && nGlob > 0) s.append(" gp = global_product(xt);");
            s.append(' ').append(levelProducts(lv, lv.levelOfColumn(j))).append(" break;\n");
        }
        s.append("        default: P = 0.0;\n");
        s.append("      }\n");
        s.append("      double acc = (g & 1) ? -P : P;\n");
        UnrolledGrayBlock.emit(s, k, new UnrolledGrayBlock.Types("double", "-1.0", "1.0", "double", "0.0"), (m, j, sign) -> {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
                double v = a.get(i, j);
                if (v == 0) continue;
                String r = "r" + i;
                if (sign == UnrolledGrayBlock.Sign.BLOCK) b.append(' ').append(r).append(" = fma(sb, ").append(lit(v)).append(", ").append(r).append(");");
                else b.append(' ').append(r).append(sign == UnrolledGrayBlock.Sign.PLUS ? " += " : " -= ").append(lit(v)).append(';');
            }
            return b.append(' ').append(levelProducts(lv, lv.levelOfColumn(j))).toString();
        });
        // branch-free TwoSum (Knuth): sum + comp carries the block sums without the rounding of their addition
        s.append("      double ts = sum + acc; double bb = ts - sum;\n");
        s.append("      comp += (sum - (ts - bb)) + (acc - bb); sum = ts;\n");
        s.append("    }\n");
        s.append("  }\n");
        s.append("  partials[2 * t] = sum;\n  partials[2 * t + 1] = comp;\n}\n");
        return s.toString();
    }

    /** Recomputes d(top) .. d1 and P for levels {@code <= top} (d(levels) is gp). */
    private static String levelProducts(ProductLevels lv, int top) {
        StringBuilder b = new StringBuilder();
        int levels = lv.levels();
        if (levels == 0) return "P = gp;";
        for (int l = top; l >= 0; l--) {
            String above = l + 1 >= levels ? "gp" : "d" + (l + 1);
            List<String> rows = new ArrayList<>();
            for (int i : lv.rows(l)) rows.add("r" + i);
            b.append(l == 0 ? "P" : "d" + l).append(" = ").append(times(above, tree(rows))).append(l == 0 ? ";" : "; ");
        }
        return b.toString();
    }

    private static String times(String a, String b) {
        if (b == null) return a;
        if (a.equals("1.0")) return b;
        return a + " * " + b;
    }

    /** Balanced multiply tree (more independent multiplies in flight than a chain); null for no factors. */
    public static String tree(List<String> f) {
        if (f.isEmpty()) return null;
        if (f.size() == 1) return f.get(0);
        int h = f.size() / 2;
        return "(" + tree(f.subList(0, h)) + " * " + tree(f.subList(h, f.size())) + ")";
    }

    private static String var(int[] kind, int i) {
        return (kind[i] == HybridPartition.REGISTER ? "r" : "q") + i;
    }

    /** A C double literal that reads back as exactly {@code v}. */
    static String lit(double v) {
        if (!Double.isFinite(v)) throw new IllegalArgumentException("cannot emit non-finite value " + v);
        String t = Double.toString(v).toLowerCase(Locale.ROOT);
        return v < 0 ? "(" + t + ")" : t;
    }
}
