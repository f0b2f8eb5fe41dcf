package dev.squall.hmatrix.h2;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.Arrays;
import java.util.List;

/**
 * One launch of {@link BlockRowKernels}: the marshaled offsets of a batch of block rows (output blocks and the small
 * products summed into each), built on the host from the flattened trees and uploaded once. Below
 * {@link #MMA_MIN_VECTORS} vectors the launch is {@link BlockRowKernels#lanes} (fp64 multiply-adds), from there on
 * {@link BlockRowKernels#mma} (FP64 tensor cores on CUDA).
 */
final class BlockRowBatch {
    /**
     * Fewest vectors for which a batch runs on the tensor-core kernel: it reads each block once for all vectors (its
     * tiles are 8 wide), where {@link BlockRowKernels#lanes} reads a block row once per vector.
     */
    static final int MMA_MIN_VECTORS = 2;

    private int groups, terms;
    private int[] group = new int[64];
    private int[] term = new int[64];
    private long[] termOff = new long[32];
    private long bytes;
    private IntArray groupArray, termArray;
    private LongArray termOffArray;

    /** Starts the output block of {@code rows} rows from vector row {@code outRow}; its terms follow. */
    BlockRowBatch block(int outRow, int rows) {
        if (4 * groups + 4 > group.length) group = Arrays.copyOf(group, 2 * group.length);
        group[4 * groups] = outRow;
        group[4 * groups + 1] = rows;
        group[4 * groups + 2] = terms;
        group[4 * groups + 3] = terms;
        groups++;
        return this;
    }

    /** Adds {@code A X} to the current block: {@code A} ({@code rows x inner}) at {@code aOff}, {@code X} from vector row {@code xRow}. */
    BlockRowBatch term(long aOff, int inner, int xRow) {
        if (groups == 0) throw new IllegalStateException("a term needs a block");
        if (2 * terms + 2 > term.length) term = Arrays.copyOf(term, 2 * term.length);
        if (terms + 1 > termOff.length) termOff = Arrays.copyOf(termOff, 2 * termOff.length);
        term[2 * terms] = inner;
        term[2 * terms + 1] = xRow;
        termOff[terms] = aOff;
        terms++;
        group[4 * groups - 1] = terms;
        bytes += 8L * inner * group[4 * groups - 3];
        return this;
    }

    int blocks() {
        return groups;
    }

    /** Bytes of the matrices the batch reads ({@code A} of every term). */
    long matrixBytes() {
        return bytes;
    }

    /**
     * Appends the launch to {@code graph} (its structure uploaded on the first execution): {@code out} (+)= the
     * blocks of {@code a} times {@code x}, with {@code nv} vectors; nothing for an empty batch.
     */
    void append(TaskGraph graph, String name, DoubleArray a, DoubleArray x, DoubleArray out, int nv, boolean rowMajor, boolean add) {
        if (groups == 0) return;
        groupArray = H2Matrix.ints(Arrays.copyOf(group, 4 * groups));
        termArray = H2Matrix.ints(Arrays.copyOf(term, Math.max(2, 2 * terms)));
        termOffArray = H2Matrix.longs(Arrays.copyOf(termOff, Math.max(1, terms)));
        graph.transferToDevice(DataTransferMode.FIRST_EXECUTION, groupArray, termArray, termOffArray);
        boolean mma = nv >= MMA_MIN_VECTORS;
        int threads = mma ? BlockRowKernels.MMA_THREADS : BlockRowKernels.LANE_THREADS;
        WorkerGrid grid = WorkerGrid.of((long) groups * threads).withLocal(threads);
        if (mma) {
            graph.task(name, grid, BlockRowKernels::mma, new KernelContext(), groupArray, termArray, termOffArray, a, x, out, nv,
                    rowMajor ? 1 : 0, add ? 1 : 0);
        } else {
            graph.task(name, grid, BlockRowKernels::lanes, new KernelContext(), groupArray, termArray, termOffArray, a, x, out, nv,
                    rowMajor ? 1 : 0, add ? 1 : 0);
        }
    }

    /** The structure arrays on the device, to free with the product. */
    List<KernelArray> arrays() {
        return groupArray == null ? List.of() : List.of(groupArray, termArray, termOffArray);
    }
}
