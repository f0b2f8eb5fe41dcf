package uk.ac.manchester.tornado.api.types.matrix;

import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * A row-major matrix of {@code int} in an off-heap array. Kernels take it as a parameter and use {@code get(i, j)},
 * {@code set(i, j, v)}, {@code getNumRows()} and {@code getNumColumns()}: the compiler passes its elements and sizes.
 */
public final class Matrix2DInt {
    private final int rows, columns;
    private final IntArray array;

    public Matrix2DInt(int rows, int columns) {
        if (rows < 0 || columns < 0) throw new IllegalArgumentException("a matrix has a non-negative size, got " + rows + " x " + columns);
        this.rows = rows;
        this.columns = columns;
        this.array = new IntArray(rows * columns);
    }

    /** A matrix holding a copy of {@code values} (rows of equal length). */
    public Matrix2DInt(int[][] values) {
        this(values.length, values.length == 0 ? 0 : values[0].length);
        for (int i = 0; i < rows; i++) {
            if (values[i].length != columns) throw new IllegalArgumentException("row " + i + " has " + values[i].length + " values, not " + columns);
            for (int j = 0; j < columns; j++) set(i, j, values[i][j]);
        }
    }

    public int get(int i, int j) {
        return array.get(i * columns + j);
    }

    public void set(int i, int j, int value) {
        array.set(i * columns + j, value);
    }

    public int getNumRows() {
        return rows;
    }

    public int getNumColumns() {
        return columns;
    }

    /** Sets every element to {@code value}. */
    public void fill(int value) {
        array.init(value);
    }

    /** The elements, row after row (the same memory). */
    public IntArray getArray() {
        return array;
    }
}
