package dev.squall.linalg.gemm;

/** Whether an operand enters a product as stored ({@code N}) or transposed ({@code T}). */
public enum Transpose {
    N, T;

    int flag() {
        return this == T ? 1 : 0;
    }
}
