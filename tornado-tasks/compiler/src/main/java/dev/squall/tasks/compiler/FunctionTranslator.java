package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.squall.tasks.api.NoAlias;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import java.util.*;

/** Translates one kernel or device function: its C signature, the grid-stride loops of a LOOP kernel, and its body. */
final class FunctionTranslator {
    private final CTranslator program;
    private final Trees trees;
    private final CDialect d;
    private final Set<String> helpers;
    private final FunctionScope scope;
    private final ExpressionTranslator exprs;
    private final StatementTranslator statements;

    FunctionTranslator(CTranslator program, MethodTree tree, ExecutableElement el, boolean kernel) {
        this.program = program;
        this.trees = program.trees;
        this.d = program.d;
        this.helpers = program.helpers;
        this.scope = new FunctionScope(tree, el, kernel, program.trees.getPath(el));
        this.exprs = new ExpressionTranslator(program, scope);
        this.statements = new StatementTranslator(program, scope, exprs);
    }

    private String cElem(String javaElem) {
        return d.type(KernelTypes.kindOfName(javaElem));
    }

    /** The C declaration: kernel prefix and launch bounds, or the device function's return type and {@code sq_fn_} name; parameters. */
    String signature() {
        StringBuilder sb = new StringBuilder();
        List<String> ps = new ArrayList<>();
        for (VariableElement p : scope.el.getParameters()) {
            TypeMirror t = p.asType();
            if (KernelTypes.isContext(t)) continue;
            String elem = KernelTypes.arrayElement(t);
            String n = scope.name(p);
            if (t instanceof ArrayType at && scope.kernel) {
                // a TornadoVM kernel's Java array: global memory, with its length like the off-heap arrays
                ps.add(d.arrayParam(d.type(at.getComponentType().getKind()), false, false, n));
                ps.add(d.longType() + " " + n + "__len");
                continue;
            }
            if (t instanceof ArrayType at) {
                ps.add(d.arrayParameter(d.type(at.getComponentType().getKind()), program.spaces.of(p), n));
                continue;
            }
            if (elem != null) {
                // @ReadOnly / @NoAlias on a device function's parameter carry through too (const restrict)
                boolean ro = scope.isReadOnly(p);
                boolean restrict = ro || KernelTypes.has(p, ApiNames.NO_ALIAS);
                ps.add(d.arrayParam(cElem(elem), ro, restrict, n));
                ps.add(d.longType() + " " + n + "__len");
            } else {
                ps.add((scope.kernel ? d.paramType(t.getKind()) : d.type(t.getKind())) + " " + n);
            }
        }
        if (scope.kernel) sb.append(d.kernelPrefix()).append(program.launchBounds(scope.el)).append(' ').append(scope.el.getSimpleName());
        else sb.append(d.functionPrefix().isEmpty() ? "" : d.functionPrefix() + " ")
                .append(d.type(scope.el.getReturnType().getKind())).append(" sq_fn_").append(scope.el.getSimpleName());
        sb.append('(').append(ps.isEmpty() && d.backend().equals("opencl") ? "void" : String.join(", ", ps)).append(')');
        return sb.toString();
    }

    /** The whole C function. */
    String emit() {
        boolean single = scope.kernel && !scope.spmd && program.taskKernels.contains(scope.el.getSimpleName().toString())
                && LoopNest.parallelLoops(scope.tree.getBody(), program.annotations).isEmpty();
        if (scope.kernel && !scope.spmd && !single) scope.nest = LoopNest.of(scope.tree, program.annotations);
        StringBuilder body = new StringBuilder();
        TreePath bodyPath = new TreePath(scope.root, scope.tree.getBody());
        List<? extends StatementTree> ss = scope.tree.getBody().getStatements();
        if (single) {
            // a task without a parallel loop runs once, as in TornadoVM: work-item 0 of the launch
            body.append("    if (").append(d.globalId(0)).append(" == 0) {\n");
            for (StatementTree s : ss) statements.stmt(new TreePath(bodyPath, s), body, "        ");
            body.append("    }\n");
        } else if (scope.nest != null) {
            for (int i = 0; i < ss.size(); i++) {
                if (i == scope.nest.outerIndex) {
                    for (LoopNest.Loop l : scope.nest.loops) {
                        if (l.step() != null) {
                            Long c = exprs.constantValue(CTranslator.pathOf(bodyPath, l.step()));
                            if (c != null && c <= 0) throw new KernelLanguageException(l.step(), "the step of a @Parallel loop must be positive, got " + c);
                        }
                        helpers.add(l.inclusive() ? "sq_trip_le" : "sq_trip_lt");
                        body.append("    const ").append(d.longType()).append(" sq_trip").append(l.dim()).append(" = sq_trip_")
                                .append(l.inclusive() ? "le" : "lt").append("((").append(d.longType()).append(") (")
                                .append(boundExpr(bodyPath, l.init())).append("), (").append(d.longType()).append(") (")
                                .append(boundExpr(bodyPath, l.bound())).append("), ").append(l.step() == null ? "1" : "(" + d.longType() + ") ("
                                        + boundExpr(bodyPath, l.step()) + ")").append(");\n");
                    }
                }
                statements.stmt(new TreePath(bodyPath, ss.get(i)), body, "    ");
            }
        } else {
            for (StatementTree s : ss) statements.stmt(new TreePath(bodyPath, s), body, "    ");
        }
        scope.checkAsyncCopiesAwaited();
        String name = scope.el.getSimpleName().toString();
        StringBuilder out = new StringBuilder(d.localArraysPreamble(name, scope.localDecls())).append(signature()).append(" {\n");
        if (scope.usesExchangeBuffer()) out.append(d.exchangeBuffer());
        out.append(d.localArrays(name, scope.localDecls())).append(scope.hoisted()).append(body).append("}\n");
        return out.toString();
    }

    /** START/END/STEP of a parallel loop: parameters, constants, arithmetic, getSize, Math.min/max. */
    private String boundExpr(TreePath parent, ExpressionTree e) {
        TreePath p = CTranslator.pathOf(parent, e);
        new com.sun.source.util.TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree id, Void v) {
                Element el = trees.getElement(getCurrentPath());
                if (el instanceof VariableElement fv && fv.getKind() == ElementKind.FIELD) {
                    exprs.field(id, fv); // constants pass; other fields get their own message
                    return null;
                }
                boolean ok = el != null && (el.getKind() == ElementKind.PARAMETER
                        || (el instanceof VariableElement ve && ve.getConstantValue() != null)
                        || el.getKind().isClass() || el.getKind() == ElementKind.METHOD);
                if (!ok) throw new KernelLanguageException(id, "a @Parallel loop bound may use parameters, constants and x.getSize() only; "
                        + id.getName() + " is a local variable: pass the bound as a kernel parameter");
                return null;
            }
        }.scan(p, null);
        return exprs.expr(p);
    }
}
