package dev.squall.hmatrix.ksum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.runtime.Device;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ClusteringTest {
    static List<Device> devices() {
        return KernelSumTest.devices();
    }

    @Test
    void radixSortIsAStableSortByKey() {
        long[] keys = new SplittableRandom(1).longs(5000, 0, 1L << 40).map(k -> k % 97 == 0 ? 12345 : k).toArray();
        Integer[] want = IntStream.range(0, keys.length).boxed().toArray(Integer[]::new);
        Arrays.sort(want, Comparator.comparingLong((Integer i) -> keys[i]).thenComparingInt(i -> i));
        assertArrayEquals(Arrays.stream(want).mapToInt(Integer::intValue).toArray(), Clustering.sortByKey(keys));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void gridClustersAreExactlyTheNonEmptyCells(Device device) {
        double cell = 0.125;
        PointSet p = PointSet.gaussian(3000, 3, 2);
        Clustering c = Clustering.grid(p, cell, device);
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        for (int i = 0; i < p.size(); i++) for (int d = 0; d < 3; d++) lo[d] = Math.min(lo[d], p.coord(i, d));
        int[] order = c.order(), start = c.start();
        assertEquals(p.size(), Arrays.stream(order).distinct().count(), "a permutation");
        Set<String> seen = new HashSet<>();
        for (int q = 0; q < c.clusters(); q++) {
            assertTrue(start[q + 1] > start[q], "grid clusters are not empty");
            String cellOf = null;
            for (int s = start[q]; s < start[q + 1]; s++) {
                int i = order[s];
                String key = (int) Math.floor((p.coord(i, 0) - lo[0]) / cell) + "," + (int) Math.floor((p.coord(i, 1) - lo[1]) / cell)
                        + "," + (int) Math.floor((p.coord(i, 2) - lo[2]) / cell);
                if (cellOf == null) cellOf = key;
                assertEquals(cellOf, key, "cluster " + q + " holds one cell");
            }
            assertTrue(seen.add(cellOf), "cell " + cellOf + " is one cluster");
        }
    }

    @Test
    void labelsGiveClustersInOrderWithEmptyOnes() {
        Clustering c = Clustering.fromLabels(new int[] {2, 0, 2, 0, 3}, 5);
        assertArrayEquals(new int[] {1, 3, 0, 2, 4}, c.order());
        assertArrayEquals(new int[] {0, 2, 2, 4, 5, 5}, c.start());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Clustering.fromLabels(new int[] {0, 7}, 3));
        assertTrue(e.getMessage().contains("label 7 of point 1"), e.getMessage());
    }
}
