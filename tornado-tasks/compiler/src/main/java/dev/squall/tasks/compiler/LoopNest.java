package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreeScanner;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.Unroll;

import java.util.*;

/**
 * The {@code @Parallel} loop nest of a loop-parallel kernel, found syntactically and checked
 * against the canonical form of LANGUAGE.md: one nest of 1 to 3 loops, the outermost a top-level
 * statement of the body, each inner one a statement directly in the body of the loop around it,
 * {@code for (@Parallel int i = INIT; i < BOUND; i += STEP)} with INIT, BOUND and STEP built from
 * parameters, constants and {@code x.getSize()}.
 */
final class LoopNest {
    /** One parallel loop; {@code step} is null for {@code i++}. */
    record Loop(ForLoopTree tree, VariableTree var, boolean isLong, ExpressionTree init, ExpressionTree bound,
                boolean inclusive, ExpressionTree step, int dim) {
        String name() {
            return var.getName().toString();
        }
    }

    final List<Loop> loops;
    /** Index of the outermost loop among the body's top-level statements. */
    final int outerIndex;

    private LoopNest(List<Loop> loops, int outerIndex) {
        this.loops = loops;
        this.outerIndex = outerIndex;
    }

    Loop loopFor(ForLoopTree t) {
        for (Loop l : loops) if (l.tree == t) return l;
        return null;
    }

    static boolean isParallel(VariableTree v, SourceAnnotations annotations) {
        return annotations.find(v.getModifiers(), ApiNames.PARALLEL) != null || annotations.find(v.getModifiers(), TornadoNames.PARALLEL) != null;
    }

    static boolean isParallel(StatementTree s, SourceAnnotations annotations) {
        return s instanceof ForLoopTree f && f.getInitializer().size() == 1
                && f.getInitializer().get(0) instanceof VariableTree v && isParallel(v, annotations);
    }

    /** Every {@code @Parallel} for loop of a method body, in source order. */
    static List<ForLoopTree> parallelLoops(Tree body, SourceAnnotations annotations) {
        List<ForLoopTree> out = new ArrayList<>();
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitForLoop(ForLoopTree f, Void p) {
                for (StatementTree s : f.getInitializer()) {
                    if (s instanceof VariableTree v && isParallel(v, annotations)) {
                        if (f.getInitializer().size() != 1) {
                            throw new KernelLanguageException(f, "a @Parallel loop declares exactly one variable; index other values from it");
                        }
                        out.add(f);
                    }
                }
                return super.visitForLoop(f, p);
            }
        }.scan(body, null);
        return out;
    }

    /** Finds and checks the nest of a LOOP kernel; throws at the first offending tree. */
    static LoopNest of(MethodTree m, SourceAnnotations annotations) {
        BlockTree body = m.getBody();
        List<ForLoopTree> all = parallelLoops(body, annotations);
        if (all.isEmpty()) {
            throw new KernelLanguageException(m, "kernel " + m.getName() + " has no KernelContext parameter and no @Parallel loop: "
                    + "write its work as for (@Parallel int i = 0; i < n; i++) { ... }, or take a KernelContext as the first parameter (SPMD style)");
        }
        List<? extends StatementTree> top = body.getStatements();
        int outerIndex = -1;
        for (int i = 0; i < top.size(); i++) {
            if (isParallel(top.get(i), annotations)) {
                if (outerIndex >= 0) {
                    throw new KernelLanguageException(top.get(i), "a kernel has one @Parallel loop nest; split this loop into a second kernel");
                }
                outerIndex = i;
            }
        }
        if (outerIndex < 0) {
            throw new KernelLanguageException(all.get(0), "the outermost @Parallel loop must be a top-level statement of the kernel body, "
                    + "not inside another loop, block or if");
        }
        if (outerIndex != top.size() - 1) {
            throw new KernelLanguageException(top.get(outerIndex + 1), "statements after the @Parallel loop nest would run once per work-item; "
                    + "move them before the loop or into another kernel");
        }
        List<Loop> loops = new ArrayList<>();
        ForLoopTree cur = (ForLoopTree) top.get(outerIndex);
        while (cur != null) {
            loops.add(canonical(cur, loops.size(), annotations));
            ForLoopTree next = null;
            List<? extends StatementTree> inner = cur.getStatement() instanceof BlockTree b ? b.getStatements() : List.of(cur.getStatement());
            for (StatementTree s : inner) {
                if (isParallel(s, annotations)) {
                    if (next != null) {
                        throw new KernelLanguageException(s, "only one @Parallel loop may sit directly in the body of a @Parallel loop");
                    }
                    next = (ForLoopTree) s;
                }
            }
            if (next != null && loops.size() == 3) {
                throw new KernelLanguageException(next, "at most 3 nested @Parallel loops (x, y, z); make this loop sequential by removing @Parallel");
            }
            cur = next;
        }
        for (ForLoopTree f : all) {
            if (loops.stream().noneMatch(l -> l.tree == f)) {
                throw new KernelLanguageException(f, "a nested @Parallel loop must be a statement directly in the body of the @Parallel loop "
                        + "around it (not inside an if or a sequential loop)");
            }
        }
        Set<String> params = new HashSet<>();
        for (VariableTree p : m.getParameters()) params.add(p.getName().toString());
        Set<String> assigned = assignedNames(body);
        for (Loop l : loops) {
            for (ExpressionTree e : new ExpressionTree[] {l.init, l.bound, l.step}) {
                if (e != null) checkBoundExpression(e, params, assigned);
            }
            checkBody(l, annotations);
        }
        return new LoopNest(List.copyOf(loops), outerIndex);
    }

    private static Loop canonical(ForLoopTree f, int dim, SourceAnnotations annotations) {
        String shape = "write it as for (@Parallel int i = START; i < END; i++) (or <=, or i += STEP)";
        VariableTree v = (VariableTree) f.getInitializer().get(0);
        AnnotationTree unroll = annotations.find(v.getModifiers(), ApiNames.UNROLL);
        if (unroll != null) {
            throw new KernelLanguageException(unroll, "@Unroll is for sequential loops; a @Parallel loop is spread over work-items");
        }
        boolean isLong;
        if (v.getType() instanceof PrimitiveTypeTree pt && pt.getPrimitiveTypeKind() == javax.lang.model.type.TypeKind.INT) isLong = false;
        else if (v.getType() instanceof PrimitiveTypeTree pt && pt.getPrimitiveTypeKind() == javax.lang.model.type.TypeKind.LONG) isLong = true;
        else throw new KernelLanguageException(v, "a @Parallel loop variable is an int or a long; " + shape);
        if (v.getInitializer() == null) throw new KernelLanguageException(v, "a @Parallel loop variable needs a start value; " + shape);
        String name = v.getName().toString();
        ExpressionTree cond = strip(f.getCondition());
        if (!(cond instanceof BinaryTree b) || !(b.getKind() == Tree.Kind.LESS_THAN || b.getKind() == Tree.Kind.LESS_THAN_EQUAL)
                || !(strip(b.getLeftOperand()) instanceof IdentifierTree id) || !id.getName().contentEquals(name)) {
            throw new KernelLanguageException(f.getCondition() != null ? f.getCondition() : f, "the condition of a @Parallel loop must be "
                    + name + " < END or " + name + " <= END; " + shape);
        }
        if (f.getUpdate().size() != 1) throw new KernelLanguageException(f, "a @Parallel loop has exactly one update, " + name + "++ or "
                + name + " += STEP; " + shape);
        ExpressionTree u = f.getUpdate().get(0).getExpression();
        ExpressionTree step;
        if ((u.getKind() == Tree.Kind.POSTFIX_INCREMENT || u.getKind() == Tree.Kind.PREFIX_INCREMENT)
                && strip(((UnaryTree) u).getExpression()) instanceof IdentifierTree ui && ui.getName().contentEquals(name)) {
            step = null;
        } else if (u.getKind() == Tree.Kind.PLUS_ASSIGNMENT && strip(((CompoundAssignmentTree) u).getVariable()) instanceof IdentifierTree ui
                && ui.getName().contentEquals(name)) {
            step = ((CompoundAssignmentTree) u).getExpression();
            if (step instanceof LiteralTree lit && lit.getValue() instanceof Number num && num.longValue() <= 0) {
                throw new KernelLanguageException(step, "the step of a @Parallel loop must be positive, got " + num);
            }
        } else {
            throw new KernelLanguageException(u, "the update of a @Parallel loop must be " + name + "++ or " + name + " += STEP; " + shape);
        }
        return new Loop(f, v, isLong, v.getInitializer(), b.getRightOperand(), b.getKind() == Tree.Kind.LESS_THAN_EQUAL, step, dim);
    }

    static ExpressionTree strip(ExpressionTree e) {
        while (e instanceof ParenthesizedTree p) e = p.getExpression();
        return e;
    }

    /** START, END and STEP: parameters, constants, arithmetic, x.getSize() and Math.min/max. */
    private static void checkBoundExpression(ExpressionTree e, Set<String> params, Set<String> assigned) {
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree id, Void p) {
                String n = id.getName().toString();
                if (params.contains(n) && assigned.contains(n)) {
                    throw new KernelLanguageException(id, "parameter " + n + " bounds a @Parallel loop, so the kernel must not assign it");
                }
                return null;
            }

            @Override
            public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
                String s = mi.getMethodSelect().toString();
                boolean ok = s.endsWith(".getSize") || s.endsWith(".getSizeLong") || s.equals("Math.min") || s.equals("Math.max");
                if (!ok) {
                    throw new KernelLanguageException(mi, "a @Parallel loop bound may use parameters, constants, arithmetic, x.getSize() "
                            + "and Math.min/max only; compute " + mi + " on the host and pass it as a parameter");
                }
                return super.visitMethodInvocation(mi, p);
            }
        }.scan(e, null);
        // locals are caught by the typed pass (it knows which names are parameters and fields)
    }

    /** Visits the targets of assignments, compound assignments and increments; subclasses act on them. */
    private abstract static class AssignmentScanner<P> extends TreeScanner<Void, P> {
        abstract void target(ExpressionTree t);

        @Override
        public Void visitAssignment(AssignmentTree a, P p) {
            target(a.getVariable());
            return super.visitAssignment(a, p);
        }

        @Override
        public Void visitCompoundAssignment(CompoundAssignmentTree a, P p) {
            target(a.getVariable());
            return super.visitCompoundAssignment(a, p);
        }

        @Override
        public Void visitUnary(UnaryTree u, P p) {
            switch (u.getKind()) {
                case POSTFIX_INCREMENT, POSTFIX_DECREMENT, PREFIX_INCREMENT, PREFIX_DECREMENT -> target(u.getExpression());
                default -> { }
            }
            return super.visitUnary(u, p);
        }
    }

    private static Set<String> assignedNames(Tree body) {
        Set<String> out = new HashSet<>();
        new AssignmentScanner<Void>() {
            @Override
            void target(ExpressionTree t) {
                if (strip(t) instanceof IdentifierTree id) out.add(id.getName().toString());
            }
        }.scan(body, null);
        return out;
    }

    /** No assignment to the loop variable, no return, and no break that would leave the parallel loop. */
    private static void checkBody(Loop l, SourceAnnotations annotations) {
        String name = l.name();
        new AssignmentScanner<Integer>() {
            // p = depth of breakable statements (sequential loops, switches) inside the parallel loop
            @Override
            void target(ExpressionTree t) {
                if (strip(t) instanceof IdentifierTree id && id.getName().contentEquals(name)) {
                    throw new KernelLanguageException(t, "the @Parallel loop variable " + name + " must not be assigned in the loop body");
                }
            }

            @Override
            public Void visitReturn(ReturnTree r, Integer p) {
                throw new KernelLanguageException(r, "no return inside a @Parallel loop: it would end other iterations on GPUs; use continue");
            }

            @Override
            public Void visitBreak(BreakTree b, Integer p) {
                if (p == 0) throw new KernelLanguageException(b, "no break out of a @Parallel loop; use continue, or a sequential loop inside it");
                return null;
            }

            @Override
            public Void visitForLoop(ForLoopTree f, Integer p) {
                return super.visitForLoop(f, isParallel(f, annotations) ? 0 : p + 1);
            }

            @Override
            public Void visitWhileLoop(WhileLoopTree w, Integer p) {
                return super.visitWhileLoop(w, p + 1);
            }

            @Override
            public Void visitDoWhileLoop(DoWhileLoopTree w, Integer p) {
                return super.visitDoWhileLoop(w, p + 1);
            }

            @Override
            public Void visitSwitch(SwitchTree s, Integer p) {
                return super.visitSwitch(s, p + 1);
            }
        }.scan(l.tree.getStatement(), 0);
    }
}
