package dev.squall.sparse.solve;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Locale;

/**
 * Forward and backward Gauss-Seidel sweeps over one matrix and schedule, in one of two layouts: {@link CsrSweeper}
 * (the matrix's CSR arrays, rows through the schedule; any schedule) or {@link EllSweeper} (entries copied once into
 * schedule order, column-major, so the work-items of a level or colour read consecutive addresses: the GPU layout).
 *
 * <pre>{@code
 * Sweeper s = Sweeper.create(m, plan, p, 512, Sweeper.Layout.AUTO, device.info().isGpu());
 * s.appendForward(graph, "fwd", b, x);
 * s.appendBackward(graph, "bwd", b, x);
 * }</pre>
 */
public interface Sweeper {
    /** Where the sweep reads the matrix from. */
    enum Layout {
        AUTO, CSR, ELL;

        /** {@code auto}, {@code csr} or {@code ell}. */
        public static Layout parse(String s) {
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "csr" -> CSR;
                case "ell" -> ELL;
                default -> throw new IllegalArgumentException("--layout must be auto, csr or ell, got '" + s + "'");
            };
        }
    }

    /** Appends one forward sweep {@code x <- (D + L)^-1 (b - U x)} in the schedule's order; task names start with {@code prefix}. */
    void appendForward(TaskGraph g, String prefix, KernelArray b, KernelArray x);

    /** Appends one backward sweep (the schedule's mirror). */
    void appendBackward(TaskGraph g, String prefix, KernelArray b, KernelArray x);

    /** Launches of one forward sweep. */
    int forwardLaunches();

    /** Launches of one backward sweep. */
    int backwardLaunches();

    /** Groups of the forward sweep walked inside single-work-group chains. */
    int chainedGroups();

    /** The layout and why, for reports. */
    String layout();

    /**
     * The sweeper of {@code layout} for {@code plan}'s schedules over {@code m}; AUTO takes ELL on GPUs when its padding
     * costs at most 25% more entries than the off-diagonal ones (stencils, meshes) and CSR otherwise (CPUs, whose
     * work-items each stream their own rows).
     */
    static Sweeper create(DeviceMatrix m, GaussSeidel.Plan plan, Precision p, int chainMax, Layout layout, boolean gpu) {
        return switch (layout) {
            case CSR -> new CsrSweeper(m, plan, p, chainMax, "csr (requested)");
            case ELL -> new EllSweeper(m.matrix(), plan.forward(), p, chainMax, "ell (requested)");
            case AUTO -> {
                long off = m.matrix().nnz() - m.rows();
                long slots = EllSweeper.slots(m.matrix());
                if (!gpu) yield new CsrSweeper(m, plan, p, chainMax, "csr (auto: CPU device, each work-item streams its rows)");
                if (slots > Integer.MAX_VALUE - 1L || slots > 1.25 * Math.max(1, off)) {
                    yield new CsrSweeper(m, plan, p, chainMax, String.format(Locale.ROOT,
                            "csr (auto: ELL would hold %d slots for %d off-diagonal entries)", slots, off));
                }
                yield new EllSweeper(m.matrix(), plan.forward(), p, chainMax, String.format(Locale.ROOT,
                        "ell in schedule order (auto: GPU, %d slots for %d off-diagonal entries)", slots, off));
            }
        };
    }
}
