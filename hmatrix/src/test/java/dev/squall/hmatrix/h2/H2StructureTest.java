package dev.squall.hmatrix.h2;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** The host-side structure is the one H2Matrix.build makes of the same points and options. */
class H2StructureTest {
    @Test
    void matchesTheMatrixBuiltFromTheSamePoints() {
        for (H2Options.Admissibility adm : H2Options.Admissibility.values()) {
            PointCloud pts = PointCloud.uniform(1500, 3, 5L);
            H2Options o = H2Options.defaults().withOrder(3).withLeafSize(20).withAdmissibility(adm);
            H2Structure s = H2Structure.of(pts, o);
            try (H2Matrix a = H2Matrix.build(pts, CovarianceKernel.exponential(0.2), o.withDevice(Devices.jvm()))) {
                assertEquals(a.rowDepth(), s.depth());
                assertEquals(a.rank(), s.rank());
                assertEquals(a.couplingBlocks(), s.couplingCol().length);
                assertEquals(a.denseBlocks(), s.denseCol().length);
            }
            int[] perm = s.permutation();
            int[] sorted = perm.clone();
            Arrays.sort(sorted);
            for (int i = 0; i < sorted.length; i++) assertEquals(i, sorted[i], "a permutation");
            double[] tp = s.treePoints();
            for (int a = 0; a < perm.length; a++) for (int d = 0; d < 3; d++) assertEquals(pts.coord(perm[a], d), tp[a * 3 + d]);
            int[] ls = s.leafStart();
            assertEquals(1 << s.depth(), ls.length - 1);
            assertEquals(pts.size(), ls[ls.length - 1]);
            double[] box = s.boxes();
            int first = (1 << s.depth()) - 1;
            for (int i = 0; i < ls.length - 1; i++) {
                assertTrue(ls[i + 1] - ls[i] <= 20);
                for (int a = ls[i]; a < ls[i + 1]; a++) {
                    for (int d = 0; d < 3; d++) {
                        assertTrue(tp[a * 3 + d] >= box[(first + i) * 6 + 2 * d] && tp[a * 3 + d] <= box[(first + i) * 6 + 2 * d + 1], "point in its leaf's box");
                    }
                }
            }
            int[] cptr = s.couplingRowPtr(), ccol = s.couplingCol();
            for (int t = 0; t + 1 < cptr.length; t++) {
                for (int b = cptr[t]; b < cptr[t + 1]; b++) {
                    assertEquals(31 - Integer.numberOfLeadingZeros(t + 1), 31 - Integer.numberOfLeadingZeros(ccol[b] + 1), "same level");
                }
            }
            s.permutation()[0] = -1;
            assertNotEquals(-1, s.permutation()[0], "accessors return copies");
        }
        assertThrows(IllegalArgumentException.class, () -> H2Structure.of(PointCloud.uniform(10, 3, 1L), H2Options.defaults().withOrder(11)));
    }
}
