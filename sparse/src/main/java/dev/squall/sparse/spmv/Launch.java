package dev.squall.sparse.spmv;

import dev.squall.tasks.runtime.WorkerGrid;

/** One kernel launch of an executor: kernel name in the precision's kernel class, arguments, grid (null for loop kernels). */
record Launch(String kernel, Object[] args, WorkerGrid grid) {
}
