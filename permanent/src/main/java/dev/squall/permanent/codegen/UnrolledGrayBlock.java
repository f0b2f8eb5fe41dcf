package dev.squall.permanent.codegen;

/**
 * Emits the unrolled Gray-code block shared by the generated kernels (real-valued and exact):
 * after the head step g (which went through the column {@code switch}), when g is a multiple of
 * U = 2^k and the whole block fits the chunk, the steps g+1 .. g+U-1 follow as straight-line
 * code. Step m changes column ctz(m); its sign is bit ctz(m)+1 of m, known when generating,
 * except for m = U/2 whose sign is bit k of g (read once into {@code sb}). Terms of even steps go
 * into {@code acc} (the head's term), those of odd steps into {@code odd}, subtracted at the end
 * (g is even, so the term sign of step g+m is that of m). Otherwise the loop advances by one step.
 *
 * <pre>{@code
 * // column j changes row j only, by 1.0; the term is r0 * r1
 * UnrolledGrayBlock.emit(s, 5, new UnrolledGrayBlock.Types("double", "-1.0", "1.0", "double", "0.0"),
 *         (m, j, sign) -> " r" + j + (sign == Sign.PLUS ? " += 1.0;" : sign == Sign.MINUS ? " -= 1.0;" : " += sb;") + " P = r0 * r1;");
 * }</pre>
 */
public final class UnrolledGrayBlock {
    /** How step m changes its column: a fixed sign, or the block's sign {@code sb}. */
    public enum Sign { PLUS, MINUS, BLOCK }

    /** The statements of static step m on column j, ending with the new term in {@code P}. */
    @FunctionalInterface
    public interface StepBody {
        String statements(int m, int column, Sign sign);
    }

    /**
     * C spellings of the kernel's types.
     *
     * @param signType  type of {@code sb}; {@code minus}/{@code plus} its two values
     * @param termType  type of {@code acc}, {@code odd} and {@code P}; {@code zero} its zero
     */
    public record Types(String signType, String minus, String plus, String termType, String zero) {
    }

    private UnrolledGrayBlock() {
    }

    /** Appends the block (or the single-step advance when k = 0) at loop-body indentation. */
    public static void emit(StringBuilder s, int k, Types types, StepBody body) {
        int unroll = 1 << k;
        if (unroll == 1) {
            s.append("      g += 1;\n");
            return;
        }
        s.append("      if ((g & ").append(unroll - 1).append(") == 0 && g + ").append(unroll).append(" <= end) {\n");
        s.append("        ").append(types.signType()).append(" sb = ((g >> ").append(k).append(") & 1) ? ")
                .append(types.minus()).append(" : ").append(types.plus()).append(";\n");
        s.append("        ").append(types.termType()).append(" odd = ").append(types.zero()).append(";\n");
        for (int m = 1; m < unroll; m++) {
            int j = Integer.numberOfTrailingZeros(m);
            Sign sign = j + 1 >= k ? Sign.BLOCK : ((m >> (j + 1)) & 1) == 0 ? Sign.PLUS : Sign.MINUS;
            s.append("        {").append(body.statements(m, j, sign));
            s.append((m & 1) == 0 ? " acc += P;" : " odd += P;").append(" }\n");
        }
        s.append("        acc -= odd;\n");
        s.append("        g += ").append(unroll).append(";\n");
        s.append("      } else {\n        g += 1;\n      }\n");
    }
}
