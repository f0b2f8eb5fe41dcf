package dev.squall.sparse.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.squall.sparse.format.CsrMatrix;
import org.junit.jupiter.api.Test;

class StencilsTest {

    /** Dense stencil from grid distances: -1 for neighbours (Chebyshev 1 for boxes, Manhattan 1 otherwise). */
    static double[] dense(int points, int nx, int ny, int nz) {
        int n = nx * ny * nz;
        double[] d = new double[n * n];
        boolean box = points == 9 || points == 27;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                int dx = Math.abs(a % nx - b % nx), dy = Math.abs(a / nx % ny - b / nx % ny), dz = Math.abs(a / (nx * ny) - b / (nx * ny));
                int cheb = Math.max(dx, Math.max(dy, dz)), manh = dx + dy + dz;
                if (a == b) d[a * n + b] = points - 1;
                else if (box ? cheb == 1 : manh == 1) d[a * n + b] = -1;
            }
        }
        return d;
    }

    @Test
    void matchesDenseConstructionAndClosedFormCounts() {
        assertArrayEquals(dense(3, 7, 1, 1), Stencils.of(3, 7).toDense(), 0.0);
        assertArrayEquals(dense(5, 5, 3, 1), Stencils.of(5, 5, 3).toDense(), 0.0);
        assertArrayEquals(dense(9, 4, 6, 1), Stencils.of(9, 4, 6).toDense(), 0.0);
        assertArrayEquals(dense(7, 3, 4, 5), Stencils.of(7, 3, 4, 5).toDense(), 0.0);
        assertArrayEquals(dense(27, 4, 3, 5), Stencils.of(27, 4, 3, 5).toDense(), 0.0);
        assertEquals(3 * 1000 - 2, Stencils.of(3, 1000).nnz());
        assertEquals((3 * 30 - 2) * (3 * 20 - 2), Stencils.of(9, 30, 20).nnz());
        assertEquals((3 * 11 - 2) * (3 * 12 - 2) * (3 * 13 - 2), Stencils.hpcg(11, 12, 13).nnz());
        assertEquals(7 * 11 * 12 * 13 - 2 * (12 * 13 + 11 * 13 + 11 * 12), Stencils.of(7, 11, 12, 13).nnz());
    }

    @Test
    void generatorNamesAndErrors() {
        CsrMatrix a = MatrixGenerators.generate("27pt_10x10x10");
        assertEquals(28 * 28 * 28, a.nnz());
        assertEquals(5 * 40 * 30 - 2 * 40 - 2 * 30, MatrixGenerators.generate("5pt:40x30").nnz());
        assertThrows(IllegalArgumentException.class, () -> MatrixGenerators.generate("27pt:10x10"));
        assertThrows(IllegalArgumentException.class, () -> MatrixGenerators.generate("11pt:10"));
        assertThrows(IllegalArgumentException.class, () -> MatrixGenerators.generate("rmat:x"));
        assertThrows(IllegalArgumentException.class, () -> MatrixGenerators.generate("banana:3"));
    }
}
