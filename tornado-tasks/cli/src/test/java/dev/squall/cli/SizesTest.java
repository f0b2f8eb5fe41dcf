package dev.squall.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Products of user sizes: exact where they fit, bad input naming the options where they do not. */
class SizesTest {
    @Test
    void productsThatFit() {
        assertEquals(2L * Integer.MAX_VALUE * Integer.MAX_VALUE, Sizes.product("--a x --b x --c", 2, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(64 * 64 * 10000, Sizes.intElements("--batch x --n^2", 10000, 64, 64));
        assertEquals(0, Sizes.product("--n", 0, Long.MAX_VALUE));
    }

    @Test
    void overflowsNameTheOptions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Sizes.intElements("--batch x --n^2", 3, 2147483647, 2147483647));
        assertEquals("--batch x --n^2 is too large (3 x 2147483647 x 2147483647 overflows 64 bits)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sizes.intElements("--batch x --n^2", 3, 30000, 30000));
        assertEquals("--batch x --n^2 = 3 x 30000 x 30000 = 2700000000 elements exceeds 2^31 - 1 (int indexing)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sizes.product("--m x --k", Long.MAX_VALUE, 2));
        assertTrue(e.getMessage().contains("--m x --k is too large") && e.getMessage().contains("overflows 64 bits"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sizes.inRange("--n", 0, 1, 46340));
        assertEquals("--n 0: must be 1..46340", e.getMessage());
    }
}
