package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.squall.tasks.api.Unroll;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import java.util.*;

/** Translates the statements of one kernel or device function to C: declarations, control flow, loops. */
final class StatementTranslator {
    private final CTranslator program;
    private final Trees trees;
    private final CDialect d;
    private final FunctionScope scope;
    private final ExpressionTranslator exprs;

    StatementTranslator(CTranslator program, FunctionScope scope, ExpressionTranslator exprs) {
        this.program = program;
        this.trees = program.trees;
        this.d = program.d;
        this.scope = scope;
        this.exprs = exprs;
    }

    /** Appends statement {@code p} to {@code out} at indentation {@code ind}. */
    void stmt(TreePath p, StringBuilder out, String ind) {
        StatementTree s = (StatementTree) p.getLeaf();
        switch (s) {
            case BlockTree b -> {
                out.append(ind).append("{\n");
                for (StatementTree c : b.getStatements()) stmt(new TreePath(p, c), out, ind + "    ");
                out.append(ind).append("}\n");
            }
            case VariableTree v -> varDecl(p, v, out, ind);
            case ExpressionStatementTree e -> out.append(ind).append(exprs.top(new TreePath(p, e.getExpression()))).append(";\n");
            case IfTree i -> {
                out.append(ind).append("if (").append(exprs.top(new TreePath(p, i.getCondition()))).append(")\n");
                nested(new TreePath(p, i.getThenStatement()), out, ind);
                if (i.getElseStatement() != null) {
                    out.append(ind).append("else\n");
                    nested(new TreePath(p, i.getElseStatement()), out, ind);
                }
            }
            case ForLoopTree f -> forLoop(p, f, out, ind);
            case WhileLoopTree w -> {
                out.append(ind).append("while (").append(exprs.top(new TreePath(p, w.getCondition()))).append(")\n");
                nested(new TreePath(p, w.getStatement()), out, ind);
            }
            case DoWhileLoopTree w -> {
                out.append(ind).append("do\n");
                nested(new TreePath(p, w.getStatement()), out, ind);
                out.append(ind).append("while (").append(exprs.top(new TreePath(p, w.getCondition()))).append(");\n");
            }
            case SwitchTree sw -> switchStmt(p, sw, out, ind);
            case BreakTree b -> {
                if (b.getLabel() != null) throw new KernelLanguageException(b, "labelled break is not in the kernel language; use a flag variable");
                out.append(ind).append("break;\n");
            }
            case ContinueTree c -> {
                if (c.getLabel() != null) throw new KernelLanguageException(c, "labelled continue is not in the kernel language; use a flag variable");
                out.append(ind).append("continue;\n");
            }
            case ReturnTree r -> {
                if (r.getExpression() == null) out.append(ind).append("return;\n");
                else out.append(ind).append("return ").append(exprs.top(new TreePath(p, r.getExpression()))).append(";\n");
            }
            case EmptyStatementTree e -> out.append(ind).append(";\n");
            case EnhancedForLoopTree e -> throw new KernelLanguageException(e, "enhanced for loops iterate over objects; "
                    + "write for (int i = 0; i < n; i++) with an index");
            case TryTree t -> throw new KernelLanguageException(t, "no try/catch in kernels: devices have no exceptions; check values with if");
            case ThrowTree t -> throw new KernelLanguageException(t, "no throw in kernels: devices have no exceptions; write an error flag to an array");
            case SynchronizedTree t -> throw new KernelLanguageException(t, "no synchronized in kernels; use ctx.localBarrier() or atomics");
            case LabeledStatementTree t -> throw new KernelLanguageException(t, "no labels in kernels; use a flag variable to leave nested loops");
            case AssertTree t -> throw new KernelLanguageException(t, "no assert in kernels; check on the host");
            case ClassTree t -> throw new KernelLanguageException(t, "no local classes in kernels");
            default -> throw new KernelLanguageException(s, "statement " + s.getKind() + " is not in the kernel language");
        }
    }

    private void nested(TreePath p, StringBuilder out, String ind) {
        if (p.getLeaf() instanceof BlockTree) {
            stmt(p, out, ind);
        } else {
            out.append(ind).append("{\n");
            stmt(p, out, ind + "    ");
            out.append(ind).append("}\n");
        }
    }

    private void forLoop(TreePath p, ForLoopTree f, StringBuilder out, String ind) {
        LoopNest.Loop l = scope.nest != null ? scope.nest.loopFor(f) : null;
        if (l == null && f.getInitializer().size() == 1 && f.getInitializer().get(0) instanceof VariableTree v && LoopNest.isParallel(v, program.annotations)) {
            throw new KernelLanguageException(f, scope.spmd ? "@Parallel loops belong to loop-parallel kernels; an SPMD kernel (KernelContext "
                    + "parameter) gets its parallelism from the launch grid: use ctx.globalIdx" : "@Parallel is only allowed on the kernel's loop nest");
        }
        if (l != null) {
            String t = "sq_t" + l.dim();
            VariableElement ve = (VariableElement) trees.getElement(new TreePath(p, l.var()));
            String n = scope.declare(ve, l.name());
            out.append(ind).append("for (").append(d.longType()).append(' ').append(t).append(" = ").append(d.loopGlobalId(l.dim()))
                    .append("; ").append(t).append(" < sq_trip").append(l.dim()).append("; ").append(t).append(" += ")
                    .append(d.loopGlobalSize(l.dim())).append(") {\n");
            String ty = l.isLong() ? d.longType() : "int";
            boolean simple = l.init() instanceof LiteralTree lit && Objects.equals(lit.getValue(), 0) && l.step() == null;
            String value = simple ? "(" + ty + ") " + t : "(" + ty + ") ((" + d.longType() + ") (" + exprs.expr(new TreePath(p, l.init())) + ") + " + t
                    + (l.step() == null ? "" : " * (" + d.longType() + ") (" + exprs.expr(new TreePath(p, l.step())) + ")") + ")";
            out.append(ind).append("    ").append(ty).append(' ').append(n).append(" = ").append(value).append(";\n");
            TreePath body = new TreePath(p, f.getStatement());
            if (f.getStatement() instanceof BlockTree b) {
                for (StatementTree s : b.getStatements()) stmt(new TreePath(body, s), out, ind + "    ");
            } else {
                stmt(body, out, ind + "    ");
            }
            out.append(ind).append("}\n");
            return;
        }
        String unroll = unrollPragma(p, f);
        if (unroll != null) out.append(unroll).append('\n');
        StringBuilder init = new StringBuilder();
        List<? extends StatementTree> in = f.getInitializer();
        for (int k = 0; k < in.size(); k++) {
            StatementTree s = in.get(k);
            TreePath sp = new TreePath(p, s);
            if (s instanceof VariableTree v) {
                VariableElement ve = (VariableElement) trees.getElement(sp);
                TypeMirror t = ve.asType();
                if (!t.getKind().isPrimitive()) throw new KernelLanguageException(v, "for-loop variables are primitives");
                String n = scope.declare(ve, v.getName().toString());
                if (k == 0) init.append(d.type(t.getKind())).append(' ');
                else init.append(", ");
                init.append(n);
                if (v.getInitializer() != null) init.append(" = ").append(exprs.top(new TreePath(sp, v.getInitializer())));
            } else {
                if (k > 0) init.append(", ");
                init.append(exprs.top(new TreePath(sp, ((ExpressionStatementTree) s).getExpression())));
            }
        }
        StringBuilder upd = new StringBuilder();
        for (ExpressionStatementTree u : f.getUpdate()) {
            if (!upd.isEmpty()) upd.append(", ");
            upd.append(exprs.top(new TreePath(new TreePath(p, u), u.getExpression())));
        }
        out.append(ind).append("for (").append(init).append("; ")
                .append(f.getCondition() == null ? "" : exprs.top(new TreePath(p, f.getCondition()))).append("; ").append(upd).append(")\n");
        nested(new TreePath(p, f.getStatement()), out, ind);
    }

    /** {@code #pragma unroll [N]} for a loop whose variable carries @Unroll (constant factor, 0 = fully). */
    private String unrollPragma(TreePath p, ForLoopTree f) {
        for (StatementTree s : f.getInitializer()) {
            if (!(s instanceof VariableTree v)) continue;
            for (AnnotationTree a : v.getModifiers().getAnnotations()) {
                if (!program.annotations.is(a, ApiNames.UNROLL)) continue;
                long factor = 0;
                if (!a.getArguments().isEmpty()) {
                    ExpressionTree arg = a.getArguments().get(0);
                    if (arg instanceof AssignmentTree as) arg = as.getExpression();
                    Long c = exprs.constantValue(CTranslator.pathOf(p, arg));
                    if (c == null || c < 0) throw new KernelLanguageException(a, "@Unroll takes a constant factor >= 0 (0 unrolls fully)");
                    factor = c;
                }
                return d.unrollPragma(factor, KernelFacts.collective(f.getStatement(), program.owner, trees));
            }
        }
        return null;
    }

    private void switchStmt(TreePath p, SwitchTree sw, StringBuilder out, String ind) {
        TypeMirror t = trees.getTypeMirror(new TreePath(p, sw.getExpression()));
        if (t == null || !(t.getKind() == TypeKind.INT || t.getKind() == TypeKind.SHORT || t.getKind() == TypeKind.BYTE)) {
            throw new KernelLanguageException(sw.getExpression(), "switch works on int, short and byte values in kernels, not " + t);
        }
        out.append(ind).append("switch (").append(exprs.top(new TreePath(p, sw.getExpression()))).append(") {\n");
        for (CaseTree c : sw.getCases()) {
            TreePath cp = new TreePath(p, c);
            if (c.getExpressions().isEmpty()) {
                out.append(ind).append("default:\n");
            } else {
                for (ExpressionTree e : c.getExpressions()) {
                    out.append(ind).append("case ").append(exprs.top(new TreePath(cp, e))).append(":\n");
                }
            }
            out.append(ind).append("    {\n");
            if (c.getCaseKind() == CaseTree.CaseKind.RULE) {
                Tree body = c.getBody();
                if (body instanceof StatementTree st) stmt(new TreePath(cp, st), out, ind + "        ");
                else out.append(ind).append("        ").append(exprs.top(new TreePath(cp, body))).append(";\n");
                out.append(ind).append("        break;\n");
            } else {
                for (StatementTree st : c.getStatements()) stmt(new TreePath(cp, st), out, ind + "        ");
            }
            out.append(ind).append("    }\n");
        }
        out.append(ind).append("}\n");
    }

    private void varDecl(TreePath p, VariableTree v, StringBuilder out, String ind) {
        VariableElement ve = (VariableElement) trees.getElement(p);
        TypeMirror t = ve.asType();
        ExpressionTree init = v.getInitializer();
        TreePath ip = init == null ? null : new TreePath(p, init);
        if (t.getKind().isPrimitive()) {
            if (t.getKind() == TypeKind.CHAR) throw new KernelLanguageException(v, "char is not in the kernel language; use short or int");
            String n = scope.declare(ve, v.getName().toString());
            out.append(ind).append(d.type(t.getKind())).append(' ').append(n);
            if (ip != null) out.append(" = ").append(exprs.top(ip));
            out.append(";\n");
            return;
        }
        if (t instanceof ArrayType at) {
            TypeMirror ct = at.getComponentType();
            if (!ct.getKind().isPrimitive() || ct.getKind() == TypeKind.CHAR) {
                throw new KernelLanguageException(v, "kernel arrays of " + ct + " are not supported; private and local arrays hold primitives "
                        + "(boolean, byte, short, int, long, float, double)");
            }
            String elem = d.type(ct.getKind());
            if (init == null) throw new KernelLanguageException(v, "declare private arrays with their size: " + ct + "[] " + v.getName()
                    + " = new " + ct + "[K] with constant K");
            ExpressionTree ie = LoopNest.strip(init);
            if (ie instanceof MethodInvocationTree mi && isLocalAllocation(ip)) {
                if (!scope.kernel) throw new KernelLanguageException(mi, "local memory is allocated in kernels only, not in device functions; "
                        + "allocate it in the kernel and pass values instead");
                long size = constantSize(new TreePath(ip, mi.getArguments().get(0)), "local memory");
                String n = scope.declare(ve, v.getName().toString());
                scope.addLocalArray(new CDialect.LocalArray(elem, n, size, CDialect.bytes(ct.getKind())));
                    scope.markLocalArray(ve);
                return;
            }
            if (ie instanceof NewArrayTree na) {
                String n = scope.declare(ve, v.getName().toString());
                scope.markPrivateArray(ve);
                TreePath np = CTranslator.pathOf(p, na);
                if (na.getDimensions().size() > 1) throw new KernelLanguageException(na, "private arrays have one dimension; index a flat array");
                if (na.getInitializers() != null) {
                    List<String> vals = new ArrayList<>();
                    for (ExpressionTree e : na.getInitializers()) vals.add(exprs.top(new TreePath(np, e)));
                    out.append(ind).append(elem).append(' ').append(n).append('[').append(Math.max(1, vals.size())).append("] = {")
                            .append(vals.isEmpty() ? "0" : String.join(", ", vals)).append("};\n");
                } else {
                    long size = constantSize(new TreePath(np, na.getDimensions().get(0)), "a private array");
                    out.append(ind).append(elem).append(' ').append(n).append('[').append(size).append("] = {0};\n");
                }
                return;
            }
            throw new KernelLanguageException(init, "a private array is created where it is declared (new " + ct + "[K] or {...}), "
                    + "local memory with ctx.allocate" + Character.toUpperCase(ct.toString().charAt(0)) + ct.toString().substring(1)
                    + "LocalArray(K); arrays cannot be aliased");
        }
        if (KernelTypes.arrayElement(t) != null) {
            throw new KernelLanguageException(v, "local variables of kernel array types are not supported: use the parameter directly");
        }
        throw new KernelLanguageException(v, "variables of type " + t + " are not in the kernel language: only primitives, "
                + "private arrays and local memory");
    }

    private boolean isLocalAllocation(TreePath p) {
        if (!(LoopNest.strip((ExpressionTree) p.getLeaf()) instanceof MethodInvocationTree mi)) return false;
        Element e = trees.getElement(new TreePath(CTranslator.pathOf(p, mi), mi.getMethodSelect()));
        return e instanceof ExecutableElement ex && KernelTypes.isContext(ex.getEnclosingElement().asType())
                && ex.getSimpleName().toString().startsWith("allocate");
    }

    private long constantSize(TreePath p, String what) {
        Long v = exprs.constantValue(p);
        if (v == null) throw new KernelLanguageException(p.getLeaf(), "the size of " + what + " must be a compile-time constant "
                + "(a literal or a static final int), got " + p.getLeaf());
        if (v <= 0 || v > (1 << 20)) throw new KernelLanguageException(p.getLeaf(), "the size of " + what + " must be in 1.." + (1 << 20) + ", got " + v);
        return v;
    }
}
