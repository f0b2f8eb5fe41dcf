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
}
