package dev.squall.permanent.exact;

import java.math.BigInteger;
import java.util.List;

/**
 * What exact preprocessing with expansion leaves: a tree whose leaves are irreducible integer blocks for a sweep,
 * {@code perm(Product) = factor * prod perm(factors)} (block-triangular split and elimination) and
 * {@code perm(Sum) = sum perm(terms)} (Laplace expansion along a sparse row or column). Built by
 * {@link ExpandingReduction}; every node is exact, so rounding enters only at the leaves' sweeps and where the
 * floating-point values of the nodes are combined.
 *
 * <pre>{@code
 * ExpansionTree t = new ExpandingReduction(cost).reduce(IntegerScaling.ofBinary(a).rows());
 * BigInteger p = t.evaluate(leaf -> RationalPermanent.block(leaf, 2).value());
 * }</pre>
 */
public sealed interface ExpansionTree {
    /** {@code factor * prod perm(factors)}; a factor of 0 means the permanent is 0. */
    record Product(BigInteger factor, List<ExpansionTree> factors) implements ExpansionTree {
    }

    /** {@code sum perm(terms)}: expansion along {@code along} ("row 3 of a 27x27 block, 3 nonzeros"). */
    record Sum(String along, List<ExpansionTree> terms) implements ExpansionTree {
    }

    /** An irreducible block (order >= 2, no row or column with fewer than 3 nonzeros) left for a sweep. */
    record Leaf(BigInteger[][] block) implements ExpansionTree {
        public int order() {
            return block.length;
        }
    }

    ExpansionTree ZERO = new Product(BigInteger.ZERO, List.of());

    /** The exact permanent, given the leaves' exact permanents. */
    default BigInteger evaluate(java.util.function.Function<BigInteger[][], BigInteger> leaf) {
        return switch (this) {
            case Leaf l -> leaf.apply(l.block());
            case Sum s -> s.terms().stream().map(t -> t.evaluate(leaf)).reduce(BigInteger.ZERO, BigInteger::add);
            case Product p -> {
                BigInteger v = p.factor();
                for (ExpansionTree t : p.factors()) {
                    if (v.signum() == 0) break;
                    v = v.multiply(t.evaluate(leaf));
                }
                yield v;
            }
        };
    }

    /** The leaves, left to right (a block reached along several expansion terms appears once per term). */
    default List<Leaf> leaves() {
        List<Leaf> out = new java.util.ArrayList<>();
        collect(this, out);
        return out;
    }

    /** Number of expansions (Sum nodes). */
    default int expansions() {
        return switch (this) {
            case Leaf l -> 0;
            case Sum s -> 1 + s.terms().stream().mapToInt(ExpansionTree::expansions).sum();
            case Product p -> p.factors().stream().mapToInt(ExpansionTree::expansions).sum();
        };
    }

    private static void collect(ExpansionTree t, List<Leaf> out) {
        switch (t) {
            case Leaf l -> out.add(l);
            case Sum s -> s.terms().forEach(x -> collect(x, out));
            case Product p -> p.factors().forEach(x -> collect(x, out));
        }
    }
}
