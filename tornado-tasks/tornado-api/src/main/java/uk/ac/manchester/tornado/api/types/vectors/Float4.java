package uk.ac.manchester.tornado.api.types.vectors;

/**
 * Four floats x, y, z, w, with the element-wise operations of TornadoVM's examples. In kernels (through a
 * {@link uk.ac.manchester.tornado.api.types.collections.VectorFloat4} parameter) the compiler keeps a Float4 as four floats:
 * locals, {@code new Float4(...)}, {@code add}, {@code sub}, {@code mult}, {@code div}, {@code dot}, {@code getX()} ...
 */
public final class Float4 {
    private float x, y, z, w;

    public Float4() {
    }

    public Float4(float x, float y, float z, float w) {
        this.x = x;
        this.y = y;
        this.z = z;
        this.w = w;
    }

    public float getX() { return x; }

    public float getY() { return y; }

    public float getZ() { return z; }

    public float getW() { return w; }

    public void setX(float v) { x = v; }

    public void setY(float v) { y = v; }

    public void setZ(float v) { z = v; }

    public void setW(float v) { w = v; }

    public float get(int i) {
        return switch (i) {
            case 0 -> x;
            case 1 -> y;
            case 2 -> z;
            case 3 -> w;
            default -> throw new IndexOutOfBoundsException("a Float4 has elements 0 to 3, not " + i);
        };
    }

    public static Float4 add(Float4 a, Float4 b) {
        return new Float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }

    public static Float4 sub(Float4 a, Float4 b) {
        return new Float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
    }

    public static Float4 div(Float4 a, Float4 b) {
        return new Float4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w);
    }

    public static Float4 div(Float4 a, float s) {
        return new Float4(a.x / s, a.y / s, a.z / s, a.w / s);
    }

    public static Float4 mult(Float4 a, Float4 b) {
        return new Float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
    }

    public static Float4 mult(Float4 a, float s) {
        return new Float4(a.x * s, a.y * s, a.z * s, a.w * s);
    }

    public static float dot(Float4 a, Float4 b) {
        return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }

    @Override
    public String toString() {
        return "<" + x + ", " + y + ", " + z + ", " + w + ">";
    }
}
