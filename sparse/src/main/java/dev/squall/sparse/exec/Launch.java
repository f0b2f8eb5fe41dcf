package dev.squall.sparse.exec;

import dev.squall.tasks.runtime.WorkerGrid;

/**
 * One kernel launch of an executor: kernel name in the precision's kernel class, arguments, grid (null for loop kernels).
 *
 * <pre>{@code
 * new Launch("csrScalar", new Object[] {rowPtr, col, val, x, y, coef, rows}, null)
 * }</pre>
 */
public record Launch(String kernel, Object[] args, WorkerGrid grid) {
}
