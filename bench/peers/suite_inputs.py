"""The generated inputs of squall's workload suites (bench/src/main/java/dev/squall/bench/suite), rebuilt bit for bit in
NumPy (or CuPy, for large batches) so that the peers compute on the very inputs Squall does.

Squall draws them from java.util.SplittableRandom: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014), nextDouble = (nextLong >>> 11) * 2^-53, doubles(n, a, b) = a + (b - a) * nextDouble.
The k-th draw has the closed form mix64(seed + k gamma), so every draw of many seeds (one per matrix of a batch) is
computed at once.
"""
import numpy as np

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def split_mix_doubles(seeds, count, xp=np):
    """count doubles in [0, 1) from new SplittableRandom(seed) for each seed: an array (len(seeds), count) of the
    array module xp (numpy, or cupy to draw on the GPU). The k-th state is seed + k * gamma (mod 2^64), so every draw
    is computed at once."""
    seeds = xp.asarray(np.asarray(seeds, dtype=np.int64).astype(np.uint64).reshape(-1, 1))
    with np.errstate(over="ignore"):
        z = seeds + GOLDEN_GAMMA * xp.arange(1, count + 1, dtype=xp.uint64).reshape(1, -1)
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(xp.float64) * 2.0 ** -53


def uniform(count, seed, lo=0.0, hi=1.0):
    """new SplittableRandom(seed).doubles(count, lo, hi).toArray()."""
    r = split_mix_doubles([seed], count)[0]
    if lo == 0.0 and hi == 1.0:
        return r
    r = r * (hi - lo) + lo
    return np.where(r >= hi, np.nextafter(hi, -np.inf), r)


def points(n, dim, seed):
    """PointSet.uniform(n, dim, seed): n points in the unit cube, one row each."""
    return uniform(n * dim, seed).reshape(n, dim)


def covariance_batch(n, first, count, xp=np):
    """BatchedCholeskyFactor.covariance(n, e) for e in [first, first + count): (count, n, n), exp(-|xi - xj|^2 / (2 0.3^2))
    + 0.1 [i = j] over n points drawn by SplittableRandom(100 + e) (symmetric, so row- and column-major agree). xp is
    the array module that forms the matrices (numpy, or cupy to build a large batch on the GPU)."""
    x = split_mix_doubles(np.arange(first, first + count) + 100, 3 * n, xp).reshape(count, n, 3)
    d2 = xp.zeros((count, n, n))
    for d in range(3):
        c = x[:, :, d]
        d2 += (c[:, :, None] - c[:, None, :]) ** 2
    return xp.exp(-d2 / (2 * 0.3 * 0.3)) + 0.1 * xp.eye(n)
