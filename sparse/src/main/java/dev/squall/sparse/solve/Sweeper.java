package dev.squall.sparse.solve;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Locale;

/**
 * Forward and backward Gauss-Seidel sweeps over one matrix and schedule, in one of three layouts: {@link CsrSweeper}
 * (the matrix's CSR arrays, rows through the schedule; any schedule), {@link EllSweeper} (entries copied once into
 * schedule order, column-major, so the work-items of a level or colour read consecutive addresses: the GPU layout) or
 * {@link DiaSweeper} (as ELL, values only, for matrices on few diagonals: stencils).
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
        AUTO, CSR, ELL, DIA;

        /** {@code auto}, {@code csr}, {@code ell} or {@code dia}. */
        public static Layout parse(String s) {
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "csr" -> CSR;
                case "ell" -> ELL;
                case "dia" -> DIA;
                default -> throw new IllegalArgumentException("--layout must be auto, csr, ell or dia, got '" + s + "'");
            };
        }
    }

    /** Most diagonals for which AUTO takes the DIA layout. */
    int AUTO_DIAGONALS = 32;

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

    /**
     * Bytes one forward or backward sweep of this layout reads and writes at least: its matrix arrays once (values,
     * column indices where it has them, row lengths or pointers, diagonals, schedule) and b and x once each, x written.
     */
    double bytesPerHalfSweep();

        /** The layout and why, for reports. */
    String layout();

    /**
     * The sweeper of {@code layout} for {@code plan}'s schedules over {@code m}; AUTO takes, on GPUs, DIA when the
     * off-diagonal entries lie on at most {@link #AUTO_DIAGONALS} diagonals padded by at most 25% (stencils), else ELL
     * when its padding costs at most 25% more entries than the off-diagonal ones (meshes), and CSR otherwise (and on
     * CPUs, whose work-items each stream their own rows).
     */
    static Sweeper create(DeviceMatrix m, GaussSeidel.Plan plan, Precision p, int chainMax, Layout layout, boolean gpu) {
        return switch (layout) {
            case CSR -> new CsrSweeper(m, plan, p, chainMax, "csr (requested)");
            case ELL -> new EllSweeper(m.matrix(), plan.forward(), p, chainMax, "ell (requested)");
            case DIA -> new DiaSweeper(m.matrix(), plan.forward(), p, chainMax, "dia (requested)");
            case AUTO -> {
                long off = m.matrix().nnz() - m.rows();
                if (!gpu) yield new CsrSweeper(m, plan, p, chainMax, "csr (auto: CPU device, each work-item streams its rows)");
                int[] diagonals = DiaSweeper.offsets(m.matrix(), AUTO_DIAGONALS);
                if (diagonals != null && (long) diagonals.length * m.rows() <= Math.min(Integer.MAX_VALUE - 1L, 1.25 * Math.max(1, off))) {
                    yield new DiaSweeper(m.matrix(), diagonals, plan.forward(), p, chainMax, String.format(Locale.ROOT,
                            "dia in schedule order (auto: GPU, %d diagonals, %d slots for %d off-diagonal entries)",
                            diagonals.length, (long) diagonals.length * m.rows(), off));
                }
                long slots = EllSweeper.slots(m.matrix());
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
