package dev.squall.sparse.generate;

import dev.squall.sparse.format.CsrMatrix;

/**
 * The structured-grid matrices of Bell and Garland's SpMV study ("Implementing sparse
 * matrix-vector multiplication on throughput-oriented processors", SC'09): 3-point (1D),
 * 5- and 9-point (2D), 7- and 27-point (3D) Laplacian-like stencils on a grid of any size,
 * rows in lexicographic order (x fastest). Off-diagonal entries are -1 and the diagonal is
 * the number of neighbours of an interior point (2, 4, 8, 6, 26), as in HPCG.
 *
 * <pre>{@code
 * CsrMatrix a = Stencils.of(27, 100, 100, 100);   // 27pt_100x100x100, n = 10^6
 * CsrMatrix b = Stencils.of(5, 1000, 1000);       // 5pt_1000x1000
 * }</pre>
 */
public final class Stencils {
    private Stencils() {
    }

    /**
     * The {@code points}-point stencil on a grid with these dimensions.
     *
     * @throws IllegalArgumentException if the stencil and dimension count do not match
     *                                  (3: 1 dim, 5 or 9: 2 dims, 7 or 27: 3 dims) or a size is not positive
     */
    public static CsrMatrix of(int points, int... dims) {
        int want = switch (points) {
            case 3 -> 1;
            case 5, 9 -> 2;
            case 7, 27 -> 3;
            default -> throw new IllegalArgumentException("no " + points + "-point stencil (3, 5, 7, 9 or 27)");
        };
        if (dims.length != want) {
            throw new IllegalArgumentException("the " + points + "-point stencil needs " + want + " grid dimensions, got " + dims.length);
        }
        long n = 1;
        for (int d : dims) {
            if (d <= 0) throw new IllegalArgumentException("grid dimension " + d + " must be positive");
            n *= d;
        }
        if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("grid of " + n + " points is too large");
        int nx = dims[0];
        int ny = want > 1 ? dims[1] : 1;
        int nz = want > 2 ? dims[2] : 1;
        boolean box = points == 9 || points == 27; // all neighbours, not only along the axes
        int rz = want > 2 ? 1 : 0;
        int ry = want > 1 ? 1 : 0;
        double diag = points - 1;
        CsrBuilder b = new CsrBuilder((int) n, (int) n, n * points);
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    for (int dz = -rz; dz <= rz; dz++) {
                        for (int dy = -ry; dy <= ry; dy++) {
                            for (int dx = -1; dx <= 1; dx++) {
                                int off = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                                if (!box && off > 1) continue;
                                int xx = x + dx, yy = y + dy, zz = z + dz;
                                if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
                                b.add((zz * ny + yy) * nx + xx, off == 0 ? diag : -1.0);
                            }
                        }
                    }
                    b.endRow();
                }
            }
        }
        return b.build();
    }

    /**
     * HPCG's problem: the 27-point stencil on an nx × ny × nz grid, 26 on the diagonal and -1
     * for each neighbour (Dongarra, Heroux, Luszczek, "HPCG benchmark", 2015).
     */
    public static CsrMatrix hpcg(int nx, int ny, int nz) {
        return of(27, nx, ny, nz);
    }
}
