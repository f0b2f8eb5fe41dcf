package dev.squall.hmatrix.points;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PointCloudTest {

    @Test
    void uniformPointsLieInUnitCubeAndDependOnlyOnSeed() {
        for (int d = 2; d <= 3; d++) {
            PointCloud p = PointCloud.uniform(2000, d, 5L);
            assertEquals(2000, p.size());
            assertEquals(d, p.dim());
            double[] c = p.coordinates();
            assertEquals(2000 * d, c.length);
            double mean = 0;
            for (double v : c) {
                assertTrue(v >= 0 && v < 1, "coordinate " + v);
                mean += v / c.length;
            }
            assertEquals(0.5, mean, 0.02, "mean of uniform coordinates");
            assertArrayEquals(c, PointCloud.uniform(2000, d, 5L).coordinates(), 0.0);
            assertFalse(Arrays.equals(c, PointCloud.uniform(2000, d, 6L).coordinates()));
        }
    }

    @Test
    void explicitPointsAndDistances() {
        PointCloud p = PointCloud.of(3, 0, 0, 0, 1, 2, 2);
        assertEquals(2, p.size());
        assertEquals(2.0, p.coord(1, 2));
        assertEquals(9.0, p.distanceSquared(0, 1));
        assertEquals(0.0, p.distanceSquared(1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> p.coord(0, 3));
    }

    @Test
    void isImmutable() {
        double[] c = {0, 0, 3, 4};
        PointCloud p = PointCloud.of(2, c);
        c[2] = 100;
        p.coordinates()[3] = 100;
        assertEquals(25.0, p.distanceSquared(0, 1));
    }

    @Test
    void rejectsBadShapes() {
        assertThrows(IllegalArgumentException.class, () -> PointCloud.uniform(10, 4, 1L));
        assertThrows(IllegalArgumentException.class, () -> PointCloud.of(3, 1, 2));
        assertThrows(IllegalArgumentException.class,
                () -> PointCloud.of(2, 0, 0).distanceSquared(0, PointCloud.of(3, 0, 0, 0), 0));
    }

    @Test
    void perturbedGridKeepsOnePointPerCellAndDependsOnSeed() {
        for (int d = 2; d <= 3; d++) {
            int side = d == 2 ? 20 : 7;
            int n = (int) Math.pow(side, d) - 5; // not a full grid
            PointCloud p = PointCloud.perturbedGrid(n, d, 9L);
            assertEquals(n, p.size());
            double h = 1.0 / side;
            boolean[] cell = new boolean[(int) Math.pow(side, d)];
            for (int i = 0; i < n; i++) {
                int id = 0, mul = 1;
                for (int k = 0; k < d; k++) {
                    double x = p.coord(i, k);
                    int g = (int) Math.floor(x / h);
                    // within a quarter spacing of its cell centre
                    assertEquals((g + 0.5) * h, x, 0.25 * h + 1e-15);
                    id += g * mul;
                    mul *= side;
                }
                assertFalse(cell[id], "two points in cell " + id);
                cell[id] = true;
            }
            assertArrayEquals(p.coordinates(), PointCloud.perturbedGrid(n, d, 9L).coordinates(), 0.0);
            assertFalse(Arrays.equals(p.coordinates(), PointCloud.perturbedGrid(n, d, 10L).coordinates()));
        }
        assertEquals(0, PointCloud.perturbedGrid(0, 2, 1L).size());
        assertThrows(IllegalArgumentException.class, () -> PointCloud.perturbedGrid(-1, 2, 1L));
    }
}
