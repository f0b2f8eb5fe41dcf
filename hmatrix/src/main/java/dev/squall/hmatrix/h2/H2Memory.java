package dev.squall.hmatrix.h2;

/**
 * Bytes an {@link H2Matrix} keeps on its device, by part: dense leaf blocks, coupling blocks, leaf bases (row and
 * column; once when both sides share one point set), transfer matrices, the structure (points, boxes, index
 * arrays) and the per-product workspace for one vector (the node vectors and the tree-order copies of x and y).
 *
 * <pre>{@code System.out.println(h.memory().total() / 1e6 + " MB"); }</pre>
 */
public record H2Memory(long dense, long coupling, long bases, long transfers, long structure, long workspacePerVector) {
    /** Everything, for one vector. */
    public long total() {
        return dense + coupling + bases + transfers + structure + workspacePerVector;
    }

    /** The bytes a matrix-vector product streams, as the H2 literature counts them: dense + couplings + bases + transfers. */
    public long streamedBytes() {
        return dense + coupling + bases + transfers;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "dense %.2f MB, coupling %.2f MB, bases %.2f MB, transfers %.2f MB, structure %.2f MB, workspace %.2f MB per vector, total %.2f MB",
                dense / 1e6, coupling / 1e6, bases / 1e6, transfers / 1e6, structure / 1e6, workspacePerVector / 1e6, total() / 1e6);
    }
}
