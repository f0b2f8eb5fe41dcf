/**
 * Numbers the permanent paths share: overflow-safe values, exact power-of-two row scaling, compensated sums
 * ({@code KahanSum}) and Bregman's bound on a 0/1 permanent. Depends only on {@code matrix}, so every path can use it.
 */
package dev.squall.permanent.numeric;
