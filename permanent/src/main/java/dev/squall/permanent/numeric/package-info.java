/** Overflow-safe values and exact power-of-two row scaling. */
package dev.squall.permanent.numeric;
