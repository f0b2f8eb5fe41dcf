package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import java.util.*;

/**
 * Translates the kernels and device functions of one owner class to one C program (OpenCL C or
 * CUDA C, by {@link CDialect}), from javac's attributed trees. Everything outside the kernel
 * language (LANGUAGE.md) is a {@link KernelLanguageException} at the offending tree; errors of all
 * functions are collected.
 */
final class CTranslator {
    static final String API = "dev.squall.tasks.api.";
    static final Set<String> RESERVED = new HashSet<>(Arrays.asList((
            "auto bool break case char const continue default do double else enum extern float for goto if inline int long "
            + "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while "
            + "kernel __kernel global __global local __local constant __constant private __private read_only write_only "
            + "half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t event_t image2d_t image3d_t sampler_t "
            + "template typename namespace operator virtual friend class new delete this using mutable explicit export asm "
            + "true false NULL INFINITY NAN threadIdx blockIdx blockDim gridDim warpSize dim3 "
            + "sqrt cbrt exp expm1 log log1p log10 sin cos tan asin acos atan atan2 sinh cosh tanh pow hypot floor ceil rint "
            + "round fma fmod fabs fmin fmax copysign min max abs clamp mix step sign select any all dot length distance "
            + "native_exp native_log native_sin native_cos native_sqrt native_rsqrt native_divide rsqrt popcount clz barrier "
            + "as_int as_float as_long as_double atomic_add atom_add atomic_min atomic_max atom_min atom_max atomic_cmpxchg "
            + "atom_cmpxchg get_global_id get_local_id get_group_id get_global_size get_local_size").split(" ")));

    /** Names C, OpenCL or CUDA give a meaning (keywords, built-ins, vector types, macros by convention, our helpers). */
    static boolean reservedInC(String n) {
        return RESERVED.contains(n) || n.startsWith("sq_") || n.contains("__")
                || n.matches("(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)")
                || n.matches("[A-Z][A-Z0-9_]+"); // upper-case names are macros in C (INT_MAX, M_PI, CLK_...)
    }

    /** Thrown where javac has already reported an error: the typed pass stays quiet. */
    static final class AlreadyReported extends RuntimeException {
        AlreadyReported() {
            super(null, null, false, false);
        }
    }

    private final Trees trees;
    private final CompilationUnitTree cu;
    private final TypeElement owner;
    private final CDialect d;
    private final List<KernelLanguageException> errors = new ArrayList<>();
    private final Set<String> helpers = new TreeSet<>();
    private final Map<ExecutableElement, MethodTree> deviceFunctions = new LinkedHashMap<>();

    CTranslator(Trees trees, CompilationUnitTree cu, TypeElement owner, CDialect dialect) {
        this.trees = trees;
        this.cu = cu;
        this.owner = owner;
        this.d = dialect;
    }

    private boolean quiet;

    List<KernelLanguageException> errors() {
        return errors;
    }

    /** Whether javac reported errors in these functions itself (no program is written then). */
    boolean failedQuietly() {
        return quiet;
    }

    /** The whole program; check {@link #errors()} before using it. */
    String translate(List<ExecutableElement> kernels, List<ExecutableElement> devFns) {
        for (ExecutableElement f : devFns) deviceFunctions.put(f, trees.getTree(f));
        checkRecursion();
        try {
            inferArraySpaces(kernels);
        } catch (KernelLanguageException ex) {
            errors.add(ex);
            return "";
        }
        StringBuilder protos = new StringBuilder(), bodies = new StringBuilder();
        for (var e : deviceFunctions.entrySet()) {
            try {
                Fn fn = new Fn(e.getValue(), e.getKey(), false);
                protos.append(fn.signature()).append(";\n");
                bodies.append(fn.emit()).append('\n');
            } catch (KernelLanguageException ex) {
                errors.add(ex);
            } catch (AlreadyReported ex) {
                quiet = true;
            }
        }
        for (ExecutableElement k : kernels) {
            try {
                bodies.append(new Fn(trees.getTree(k), k, true).emit()).append('\n');
            } catch (KernelLanguageException ex) {
                errors.add(ex);
            } catch (AlreadyReported ex) {
                quiet = true;
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("// ").append(d.backend().equals("cuda") ? "CUDA C" : "OpenCL C").append(" generated by squall-compiler from ")
                .append(owner.getQualifiedName()).append(". Do not edit: change the Java source.\n");
        out.append(d.preamble());
        String h = d.helperCode(helpers);
        if (!h.isEmpty()) out.append('\n').append(h);
        if (!protos.isEmpty()) out.append('\n').append(protos);
        out.append('\n').append(bodies);
        return out.toString();
    }

    private void checkRecursion() {
        Map<ExecutableElement, List<MethodInvocationTree>> calls = new HashMap<>();
        Map<MethodInvocationTree, ExecutableElement> target = new HashMap<>();
        for (var e : deviceFunctions.entrySet()) {
            List<MethodInvocationTree> list = new ArrayList<>();
            TreePath root = trees.getPath(e.getKey());
            new com.sun.source.util.TreePathScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
                    Element el = trees.getElement(new TreePath(getCurrentPath(), mi.getMethodSelect()));
                    if (el instanceof ExecutableElement ex && deviceFunctions.containsKey(ex)) {
                        list.add(mi);
                        target.put(mi, ex);
                    }
                    return super.visitMethodInvocation(mi, p);
                }
            }.scan(root, null);
            calls.put(e.getKey(), list);
        }
        for (ExecutableElement start : deviceFunctions.keySet()) {
            MethodInvocationTree cycle = findCycle(start, start, calls, target, new HashSet<>());
            if (cycle != null) {
                errors.add(new KernelLanguageException(cycle, "device function " + start.getSimpleName()
                        + " calls itself (directly or through other device functions); kernels cannot recurse: use a loop with an explicit stack in a private array"));
                return;
            }
        }
    }

    private MethodInvocationTree findCycle(ExecutableElement start, ExecutableElement at, Map<ExecutableElement, List<MethodInvocationTree>> calls,
                                           Map<MethodInvocationTree, ExecutableElement> target, Set<ExecutableElement> seen) {
        for (MethodInvocationTree mi : calls.getOrDefault(at, List.of())) {
            ExecutableElement t = target.get(mi);
            if (t.equals(start)) return mi;
            if (seen.add(t)) {
                MethodInvocationTree c = findCycle(start, t, calls, target, seen);
                if (c != null) return c;
            }
        }
        return null;
    }

    // ---- type helpers ----

    static String arrayElement(TypeMirror t) {
        if (!(t instanceof DeclaredType dt)) return null;
        String n = ((TypeElement) dt.asElement()).getQualifiedName().toString();
        return switch (n) {
            case API + "IntArray" -> "int";
            case API + "LongArray" -> "long";
            case API + "FloatArray" -> "float";
            case API + "DoubleArray" -> "double";
            case API + "ShortArray" -> "short";
            case API + "ByteArray" -> "byte";
            default -> null;
        };
    }

    static boolean isContext(TypeMirror t) {
        return t instanceof DeclaredType dt && ((TypeElement) dt.asElement()).getQualifiedName().contentEquals(API + "KernelContext");
    }

    static TypeKind kindOfName(String javaPrimitive) {
        return switch (javaPrimitive) {
            case "int" -> TypeKind.INT;
            case "long" -> TypeKind.LONG;
            case "float" -> TypeKind.FLOAT;
            case "double" -> TypeKind.DOUBLE;
            case "short" -> TypeKind.SHORT;
            case "byte" -> TypeKind.BYTE;
            case "boolean" -> TypeKind.BOOLEAN;
            default -> throw new IllegalArgumentException(javaPrimitive);
        };
    }

    private String cElem(String javaElem) {
        return d.type(kindOfName(javaElem));
    }

    String constant(Object v) {
        return switch (v) {
            case Integer i -> i == Integer.MIN_VALUE ? "(-2147483647 - 1)" : i < 0 ? "(" + i + ")" : i.toString();
            case Long l -> l == Long.MIN_VALUE ? "(-9223372036854775807" + d.longSuffix() + " - 1" + d.longSuffix() + ")"
                    : l < 0 ? "(" + l + d.longSuffix() + ")" : l + d.longSuffix();
            case Float f -> f.isNaN() ? d.nan(TypeKind.FLOAT) : f.isInfinite() ? d.infinity(TypeKind.FLOAT, f < 0)
                    : (f < 0 || (f == 0 && 1 / f < 0)) ? "(" + f + "f)" : f + "f";
            case Double x -> x.isNaN() ? d.nan(TypeKind.DOUBLE) : x.isInfinite() ? d.infinity(TypeKind.DOUBLE, x < 0)
                    : (x < 0 || (x == 0 && 1 / x < 0)) ? "(" + x + ")" : x.toString();
            case Short s -> "((short) " + s + ")";
            case Byte b -> "((" + d.byteType() + ") " + b + ")";
            case Boolean b -> b ? "true" : "false";
            default -> null;
        };
    }

    /** One kernel or device function being translated. */
    private final class Fn {
        final MethodTree tree;
        final ExecutableElement el;
        final boolean kernel;
        final boolean spmd;
        final TreePath root;
        LoopNest nest;
        final Map<Element, String> names = new HashMap<>();
        final Set<String> used = new HashSet<>();
        final Set<Element> readOnly = new HashSet<>();
        /** Private arrays declared here (new T[K]): what mma8x8x4 accumulates into. */
        final Set<Element> privateArrays = new HashSet<>();
        final StringBuilder hoisted = new StringBuilder();
        boolean exchange;

        Fn(MethodTree tree, ExecutableElement el, boolean kernel) {
            this.tree = tree;
            this.el = el;
            this.kernel = kernel;
            this.root = trees.getPath(el);
            boolean ctx = !el.getParameters().isEmpty() && isContext(el.getParameters().get(0).asType());
            this.spmd = ctx;
            for (VariableElement p : el.getParameters()) {
                if (isContext(p.asType())) continue;
                names.put(p, unique(p.getSimpleName().toString()));
                if (hasAnnotation(p, "ReadOnly")) readOnly.add(p);
            }
        }

        String unique(String base) {
            String n = base;
            if (reservedInC(n)) n = n + "_v";
            String c = n;
            for (int i = 1; used.contains(c); i++) c = n + "_" + i;
            used.add(c);
            return c;
        }

        String name(Element e) {
            return names.get(e);
        }

        String signature() {
            StringBuilder sb = new StringBuilder();
            List<String> ps = new ArrayList<>();
            for (VariableElement p : el.getParameters()) {
                TypeMirror t = p.asType();
                if (isContext(t)) continue;
                String elem = arrayElement(t);
                String n = names.get(p);
                if (t instanceof ArrayType at) {
                    ps.add(d.arrayParameter(d.type(at.getComponentType().getKind()), arraySpaces.getOrDefault(p, "private"), n));
                    continue;
                }
                if (elem != null) {
                    // @ReadOnly / @NoAlias on a device function's parameter carry through too (const restrict)
                    boolean ro = readOnly.contains(p);
                    boolean restrict = ro || hasAnnotation(p, "NoAlias");
                    ps.add(d.arrayParam(cElem(elem), ro, restrict, n));
                    ps.add(d.longType() + " " + n + "__len");
                } else {
                    ps.add((kernel ? d.paramType(t.getKind()) : d.type(t.getKind())) + " " + n);
                }
            }
            if (kernel) sb.append(d.kernelPrefix()).append(launchBounds(el)).append(' ').append(el.getSimpleName());
            else sb.append(d.functionPrefix().isEmpty() ? "" : d.functionPrefix() + " ")
                    .append(d.type(el.getReturnType().getKind())).append(" sq_fn_").append(el.getSimpleName());
            sb.append('(').append(ps.isEmpty() && d.backend().equals("opencl") ? "void" : String.join(", ", ps)).append(')');
            return sb.toString();
        }

        String emit() {
            if (kernel && !spmd) nest = LoopNest.of(tree);
            StringBuilder body = new StringBuilder();
            TreePath bodyPath = new TreePath(root, tree.getBody());
            List<? extends StatementTree> ss = tree.getBody().getStatements();
            if (nest != null) {
                for (int i = 0; i < ss.size(); i++) {
                    if (i == nest.outerIndex) {
                        for (LoopNest.Loop l : nest.loops) {
                            if (l.step() != null) {
                                Long c = constantValue(pathOf(bodyPath, l.step()));
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
                    stmt(new TreePath(bodyPath, ss.get(i)), body, "    ");
                }
            } else {
                for (StatementTree s : ss) stmt(new TreePath(bodyPath, s), body, "    ");
            }
            StringBuilder out = new StringBuilder(signature()).append(" {\n");
            if (exchange) out.append(d.exchangeBuffer());
            out.append(hoisted).append(body).append("}\n");
            return out.toString();
        }

        /** START/END/STEP of a parallel loop: parameters, constants, arithmetic, getSize, Math.min/max. */
        private String boundExpr(TreePath parent, ExpressionTree e) {
            TreePath p = pathOf(parent, e);
            new com.sun.source.util.TreePathScanner<Void, Void>() {
                @Override
                public Void visitIdentifier(IdentifierTree id, Void v) {
                    Element el = trees.getElement(getCurrentPath());
                    if (el instanceof VariableElement fv && fv.getKind() == ElementKind.FIELD) {
                        field(id, fv); // constants pass; other fields get their own message
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
            return expr(p);
        }

        // ---- statements ----

        void stmt(TreePath p, StringBuilder out, String ind) {
            StatementTree s = (StatementTree) p.getLeaf();
            switch (s) {
                case BlockTree b -> {
                    out.append(ind).append("{\n");
                    for (StatementTree c : b.getStatements()) stmt(new TreePath(p, c), out, ind + "    ");
                    out.append(ind).append("}\n");
                }
                case VariableTree v -> varDecl(p, v, out, ind);
                case ExpressionStatementTree e -> out.append(ind).append(top(new TreePath(p, e.getExpression()))).append(";\n");
                case IfTree i -> {
                    out.append(ind).append("if (").append(top(new TreePath(p, i.getCondition()))).append(")\n");
                    nested(new TreePath(p, i.getThenStatement()), out, ind);
                    if (i.getElseStatement() != null) {
                        out.append(ind).append("else\n");
                        nested(new TreePath(p, i.getElseStatement()), out, ind);
                    }
                }
                case ForLoopTree f -> forLoop(p, f, out, ind);
                case WhileLoopTree w -> {
                    out.append(ind).append("while (").append(top(new TreePath(p, w.getCondition()))).append(")\n");
                    nested(new TreePath(p, w.getStatement()), out, ind);
                }
                case DoWhileLoopTree w -> {
                    out.append(ind).append("do\n");
                    nested(new TreePath(p, w.getStatement()), out, ind);
                    out.append(ind).append("while (").append(top(new TreePath(p, w.getCondition()))).append(");\n");
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
                    else out.append(ind).append("return ").append(top(new TreePath(p, r.getExpression()))).append(";\n");
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
            LoopNest.Loop l = nest != null ? nest.loopFor(f) : null;
            if (l == null && f.getInitializer().size() == 1 && f.getInitializer().get(0) instanceof VariableTree v && LoopNest.isParallel(v)) {
                throw new KernelLanguageException(f, spmd ? "@Parallel loops belong to loop-parallel kernels; an SPMD kernel (KernelContext "
                        + "parameter) gets its parallelism from the launch grid: use ctx.globalIdx" : "@Parallel is only allowed on the kernel's loop nest");
            }
            if (l != null) {
                String t = "sq_t" + l.dim();
                VariableElement ve = (VariableElement) trees.getElement(new TreePath(p, l.var()));
                String n = unique(l.name());
                names.put(ve, n);
                out.append(ind).append("for (").append(d.longType()).append(' ').append(t).append(" = ").append(d.loopGlobalId(l.dim()))
                        .append("; ").append(t).append(" < sq_trip").append(l.dim()).append("; ").append(t).append(" += ")
                        .append(d.loopGlobalSize(l.dim())).append(") {\n");
                String ty = l.isLong() ? d.longType() : "int";
                boolean simple = l.init() instanceof LiteralTree lit && Objects.equals(lit.getValue(), 0) && l.step() == null;
                String value = simple ? "(" + ty + ") " + t : "(" + ty + ") ((" + d.longType() + ") (" + expr(new TreePath(p, l.init())) + ") + " + t
                        + (l.step() == null ? "" : " * (" + d.longType() + ") (" + expr(new TreePath(p, l.step())) + ")") + ")";
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
                    String n = unique(v.getName().toString());
                    names.put(ve, n);
                    if (k == 0) init.append(d.type(t.getKind())).append(' ');
                    else init.append(", ");
                    init.append(n);
                    if (v.getInitializer() != null) init.append(" = ").append(top(new TreePath(sp, v.getInitializer())));
                } else {
                    if (k > 0) init.append(", ");
                    init.append(top(new TreePath(sp, ((ExpressionStatementTree) s).getExpression())));
                }
            }
            StringBuilder upd = new StringBuilder();
            for (ExpressionStatementTree u : f.getUpdate()) {
                if (!upd.isEmpty()) upd.append(", ");
                upd.append(top(new TreePath(new TreePath(p, u), u.getExpression())));
            }
            out.append(ind).append("for (").append(init).append("; ")
                    .append(f.getCondition() == null ? "" : top(new TreePath(p, f.getCondition()))).append("; ").append(upd).append(")\n");
            nested(new TreePath(p, f.getStatement()), out, ind);
        }

        /** {@code #pragma unroll [N]} for a loop whose variable carries @Unroll (constant factor, 0 = fully). */
        private String unrollPragma(TreePath p, ForLoopTree f) {
            for (StatementTree s : f.getInitializer()) {
                if (!(s instanceof VariableTree v)) continue;
                for (AnnotationTree a : v.getModifiers().getAnnotations()) {
                    String n = a.getAnnotationType().toString();
                    if (!(n.equals("Unroll") || n.endsWith(".Unroll"))) continue;
                    long factor = 0;
                    if (!a.getArguments().isEmpty()) {
                        ExpressionTree arg = a.getArguments().get(0);
                        if (arg instanceof AssignmentTree as) arg = as.getExpression();
                        Long c = constantValue(pathOf(p, arg));
                        if (c == null || c < 0) throw new KernelLanguageException(a, "@Unroll takes a constant factor >= 0 (0 unrolls fully)");
                        factor = c;
                    }
                    return factor == 0 ? "#pragma unroll" : "#pragma unroll " + factor;
                }
            }
            return null;
        }

        private void switchStmt(TreePath p, SwitchTree sw, StringBuilder out, String ind) {
            TypeMirror t = trees.getTypeMirror(new TreePath(p, sw.getExpression()));
            if (t == null || !(t.getKind() == TypeKind.INT || t.getKind() == TypeKind.SHORT || t.getKind() == TypeKind.BYTE)) {
                throw new KernelLanguageException(sw.getExpression(), "switch works on int, short and byte values in kernels, not " + t);
            }
            out.append(ind).append("switch (").append(top(new TreePath(p, sw.getExpression()))).append(") {\n");
            for (CaseTree c : sw.getCases()) {
                TreePath cp = new TreePath(p, c);
                if (c.getExpressions().isEmpty()) {
                    out.append(ind).append("default:\n");
                } else {
                    for (ExpressionTree e : c.getExpressions()) {
                        out.append(ind).append("case ").append(top(new TreePath(cp, e))).append(":\n");
                    }
                }
                out.append(ind).append("    {\n");
                if (c.getCaseKind() == CaseTree.CaseKind.RULE) {
                    Tree body = c.getBody();
                    if (body instanceof StatementTree st) stmt(new TreePath(cp, st), out, ind + "        ");
                    else out.append(ind).append("        ").append(top(new TreePath(cp, body))).append(";\n");
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
                String n = unique(v.getName().toString());
                names.put(ve, n);
                out.append(ind).append(d.type(t.getKind())).append(' ').append(n);
                if (ip != null) out.append(" = ").append(top(ip));
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
                    if (!kernel) throw new KernelLanguageException(mi, "local memory is allocated in kernels only, not in device functions; "
                            + "allocate it in the kernel and pass values instead");
                    long size = constantSize(new TreePath(ip, mi.getArguments().get(0)), "local memory");
                    String n = unique(v.getName().toString());
                    names.put(ve, n);
                    hoisted.append("    ").append(d.localArray(elem, n, size)).append('\n');
                    return;
                }
                if (ie instanceof NewArrayTree na) {
                    String n = unique(v.getName().toString());
                    names.put(ve, n);
                    privateArrays.add(ve);
                    TreePath np = pathOf(p, na);
                    if (na.getDimensions().size() > 1) throw new KernelLanguageException(na, "private arrays have one dimension; index a flat array");
                    if (na.getInitializers() != null) {
                        List<String> vals = new ArrayList<>();
                        for (ExpressionTree e : na.getInitializers()) vals.add(top(new TreePath(np, e)));
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
            if (arrayElement(t) != null) {
                throw new KernelLanguageException(v, "local variables of kernel array types are not supported: use the parameter directly");
            }
            throw new KernelLanguageException(v, "variables of type " + t + " are not in the kernel language: only primitives, "
                    + "private arrays and local memory");
        }

        private boolean isLocalAllocation(TreePath p) {
            if (!(LoopNest.strip((ExpressionTree) p.getLeaf()) instanceof MethodInvocationTree mi)) return false;
            Element e = trees.getElement(new TreePath(pathOf(p, mi), mi.getMethodSelect()));
            return e instanceof ExecutableElement ex && isContext(ex.getEnclosingElement().asType())
                    && ex.getSimpleName().toString().startsWith("allocate");
        }

        private long constantSize(TreePath p, String what) {
            Long v = constantValue(p);
            if (v == null) throw new KernelLanguageException(p.getLeaf(), "the size of " + what + " must be a compile-time constant "
                    + "(a literal or a static final int), got " + p.getLeaf());
            if (v <= 0 || v > (1 << 20)) throw new KernelLanguageException(p.getLeaf(), "the size of " + what + " must be in 1.." + (1 << 20) + ", got " + v);
            return v;
        }

        Long constantValue(TreePath p) {
            ExpressionTree e = (ExpressionTree) p.getLeaf();
            switch (e) {
                case ParenthesizedTree pt:
                    return constantValue(new TreePath(p, pt.getExpression()));
                case LiteralTree l:
                    return l.getValue() instanceof Integer || l.getValue() instanceof Long ? ((Number) l.getValue()).longValue() : null;
                case IdentifierTree id:
                    return constantOf(trees.getElement(p));
                case MemberSelectTree ms: {
                    Element el = trees.getElement(p);
                    return el instanceof VariableElement ve && ve.getConstantValue() instanceof Number n
                            && !(n instanceof Double || n instanceof Float) ? n.longValue() : null;
                }
                case BinaryTree b: {
                    Long x = constantValue(new TreePath(p, b.getLeftOperand())), y = constantValue(new TreePath(p, b.getRightOperand()));
                    if (x == null || y == null) return null;
                    return switch (b.getKind()) {
                        case PLUS -> x + y;
                        case MINUS -> x - y;
                        case MULTIPLY -> x * y;
                        case DIVIDE -> y == 0 ? null : x / y;
                        case REMAINDER -> y == 0 ? null : x % y;
                        case LEFT_SHIFT -> x << y;
                        case RIGHT_SHIFT -> x >> y;
                        case AND -> x & y;
                        case OR -> x | y;
                        case XOR -> x ^ y;
                        default -> null;
                    };
                }
                case UnaryTree u when u.getKind() == Tree.Kind.UNARY_MINUS: {
                    Long x = constantValue(new TreePath(p, u.getExpression()));
                    return x == null ? null : -x;
                }
                case TypeCastTree c:
                    return constantValue(new TreePath(p, c.getExpression()));
                default:
                    return null;
            }
        }

        private Long constantOf(Element el) {
            return el instanceof VariableElement ve && ve.getConstantValue() instanceof Number n
                    && !(n instanceof Double || n instanceof Float) ? n.longValue() : null;
        }

        // ---- expressions ----

        String top(TreePath p) {
            String s = expr(p);
            if (s.startsWith("(") && s.endsWith(")")) {
                int depth = 0;
                for (int i = 0; i < s.length(); i++) {
                    if (s.charAt(i) == '(') depth++;
                    else if (s.charAt(i) == ')' && --depth == 0) return i == s.length() - 1 ? s.substring(1, s.length() - 1) : s;
                }
            }
            return s;
        }

        private TypeMirror typeOf(TreePath p) {
            TypeMirror t = trees.getTypeMirror(p);
            if (t == null) throw new KernelLanguageException(p.getLeaf(), "cannot type this expression");
            return t;
        }

        private TypeKind numKind(TreePath p) {
            TypeMirror t = typeOf(p);
            if (!t.getKind().isPrimitive()) {
                throw new KernelLanguageException(p.getLeaf(), "operators work on primitives in kernels; " + p.getLeaf() + " is a " + t);
            }
            if (t.getKind() == TypeKind.CHAR) throw new KernelLanguageException(p.getLeaf(), "char is not in the kernel language; use short or int");
            return t.getKind();
        }

        String expr(TreePath p) {
            ExpressionTree e = (ExpressionTree) p.getLeaf();
            TypeMirror et = trees.getTypeMirror(p);
            if (et != null && et.getKind() == TypeKind.ERROR) throw new AlreadyReported();
            return switch (e) {
                case ParenthesizedTree pt -> expr(new TreePath(p, pt.getExpression()));
                case LiteralTree l -> literal(l);
                case IdentifierTree id -> identifier(p, id);
                case MemberSelectTree ms -> memberSelect(p, ms);
                case BinaryTree b -> binary(p, b);
                case UnaryTree u -> unary(p, u);
                case AssignmentTree a -> assignment(p, a);
                case CompoundAssignmentTree a -> compound(p, a);
                case ConditionalExpressionTree c -> "(" + expr(new TreePath(p, c.getCondition())) + " ? " + expr(new TreePath(p, c.getTrueExpression()))
                        + " : " + expr(new TreePath(p, c.getFalseExpression())) + ")";
                case TypeCastTree c -> cast(p, c);
                case ArrayAccessTree a -> arrayAccess(p, a);
                case MethodInvocationTree mi -> call(p, mi);
                case NewClassTree n -> throw new KernelLanguageException(n, "no objects in kernels (new " + n.getIdentifier()
                        + "): use primitives, private arrays (new double[K]) and kernel array parameters");
                case NewArrayTree n -> throw new KernelLanguageException(n, "arrays are created only as the initializer of a declaration: "
                        + "double[] a = new double[K] with constant K");
                case LambdaExpressionTree l -> throw new KernelLanguageException(l, "no lambdas in kernels; write a @DeviceFunction");
                case MemberReferenceTree m -> throw new KernelLanguageException(m, "no method references in kernels; call a @DeviceFunction");
                case InstanceOfTree i -> throw new KernelLanguageException(i, "no instanceof in kernels: kernels work on primitives and arrays");
                case SwitchExpressionTree s -> throw new KernelLanguageException(s, "no switch expressions in kernels; use a switch statement "
                        + "assigning a variable, or ?:");
                default -> throw new KernelLanguageException(e, "expression " + e.getKind() + " is not in the kernel language");
            };
        }

        private String literal(LiteralTree l) {
            Object v = l.getValue();
            if (v instanceof String) throw new KernelLanguageException(l, "no strings in kernels: devices cannot print or hold text");
            if (v instanceof Character) throw new KernelLanguageException(l, "char is not in the kernel language; use short or int codes");
            if (v == null) throw new KernelLanguageException(l, "no null in kernels: there are no objects");
            return constant(v);
        }

        private String identifier(TreePath p, IdentifierTree id) {
            Element el = trees.getElement(p);
            if (el == null) throw new KernelLanguageException(id, "cannot resolve " + id.getName());
            switch (el.getKind()) {
                case LOCAL_VARIABLE, PARAMETER, RESOURCE_VARIABLE, EXCEPTION_PARAMETER, BINDING_VARIABLE -> {
                    if (isContext(el.asType())) {
                        throw new KernelLanguageException(id, "the KernelContext is used through its fields and methods (ctx.globalIdx, ctx.localBarrier()), "
                                + "or passed to a @DeviceFunction");
                    }
                    String n = names.get(el);
                    if (n == null) throw new KernelLanguageException(id, "variable " + id.getName() + " is not in the kernel language's scope");
                    return n;
                }
                case FIELD, ENUM_CONSTANT -> {
                    return field(id, (VariableElement) el);
                }
                default -> throw new KernelLanguageException(id, id.getName() + " (" + el.getKind().toString().toLowerCase(Locale.ROOT)
                        + ") cannot be used as a value in a kernel");
            }
        }

        private String field(Tree t, VariableElement f) {
            Object c = f.getConstantValue();
            if (c != null) {
                String s = constant(c);
                if (s == null) throw new KernelLanguageException(t, "constant " + f.getSimpleName() + " is a " + f.asType() + "; kernels use numeric and boolean constants");
                return s;
            }
            if (!f.getModifiers().contains(Modifier.STATIC)) {
                throw new KernelLanguageException(t, "kernels are static: instance field " + f.getSimpleName() + " is not available; pass it as a parameter");
            }
            throw new KernelLanguageException(t, "static field " + f.getSimpleName() + " is not a compile-time constant (static final with a "
                    + "constant initializer); pass its value as a kernel parameter");
        }

        private String memberSelect(TreePath p, MemberSelectTree ms) {
            TreePath rp = new TreePath(p, ms.getExpression());
            Element el = trees.getElement(p);
            String name = ms.getIdentifier().toString();
            if (name.equals("length") && trees.getTypeMirror(rp) instanceof ArrayType) return arrayLength(rp, ms);
            if (el instanceof VariableElement ve && ve.getKind() == ElementKind.FIELD) {
                if (isContext(ve.getEnclosingElement().asType())) return contextField(ms, name);
                if (name.equals("length") && ve.getEnclosingElement() == null) return arrayLength(rp, ms);
                return field(ms, ve);
            }
            TypeMirror rt = trees.getTypeMirror(rp);
            if (name.equals("length") && rt instanceof ArrayType) return arrayLength(rp, ms);
            if (el != null && (el.getKind().isClass() || el.getKind() == ElementKind.PACKAGE)) {
                throw new KernelLanguageException(ms, ms + " cannot be used as a value in a kernel");
            }
            throw new KernelLanguageException(ms, ms + " is not in the kernel language");
        }

        private String arrayLength(TreePath rp, MemberSelectTree ms) {
            Element arr = trees.getElement(rp);
            // private and local arrays have constant sizes; find the declaration's size through C: sizeof works for both
            String n = arr != null ? names.get(arr) : null;
            if (n == null) throw new KernelLanguageException(ms, "length of " + ms.getExpression() + " is not available");
            if (arr.getKind() == ElementKind.PARAMETER) {
                throw new KernelLanguageException(ms, "the length of an array parameter is not known in C; pass it as an int parameter");
            }
            return "((int) (sizeof(" + n + ") / sizeof(" + n + "[0])))";
        }

        private String contextField(Tree t, String name) {
            return switch (name) {
                case "globalIdx" -> d.globalId(0);
                case "globalIdy" -> d.globalId(1);
                case "globalIdz" -> d.globalId(2);
                case "localIdx" -> d.localId(0);
                case "localIdy" -> d.localId(1);
                case "localIdz" -> d.localId(2);
                case "groupIdx" -> d.groupId(0);
                case "groupIdy" -> d.groupId(1);
                case "groupIdz" -> d.groupId(2);
                case "globalGroupSizeX" -> d.globalSize(0);
                case "globalGroupSizeY" -> d.globalSize(1);
                case "globalGroupSizeZ" -> d.globalSize(2);
                case "localGroupSizeX" -> d.localSize(0);
                case "localGroupSizeY" -> d.localSize(1);
                case "localGroupSizeZ" -> d.localSize(2);
                default -> throw new KernelLanguageException(t, "KernelContext has no field " + name);
            };
        }

        private String binary(TreePath p, BinaryTree b) {
            TreePath lp = new TreePath(p, b.getLeftOperand()), rp = new TreePath(p, b.getRightOperand());
            TypeKind lk = numKind(lp), rk = numKind(rp);
            TypeKind k = typeOf(p).getKind();
            String l = expr(lp), r = expr(rp);
            return switch (b.getKind()) {
                case LEFT_SHIFT, RIGHT_SHIFT, UNSIGNED_RIGHT_SHIFT -> shift(b.getKind(), k, l, r, rp);
                case REMAINDER -> (k == TypeKind.FLOAT || k == TypeKind.DOUBLE)
                        ? (k == TypeKind.FLOAT ? d.floatFn("fmod") : "fmod") + "((" + d.type(k) + ") " + l + ", (" + d.type(k) + ") " + r + ")"
                        : "(" + l + " % " + r + ")";
                default -> {
                    if ((lk == TypeKind.BOOLEAN) != (rk == TypeKind.BOOLEAN)) throw new KernelLanguageException(b, "mixed boolean operands");
                    yield "(" + l + " " + Operators.java(b.getKind()) + " " + r + ")";
                }
            };
        }

        /** Java masks shift counts and has a logical right shift; C has neither. */
        private String shift(Tree.Kind kind, TypeKind k, String l, String r, TreePath countPath) {
            int bits = k == TypeKind.LONG ? 64 : 32;
            Long c = constantValue(countPath);
            String count = c != null && c >= 0 && c < bits ? r : "(" + r + " & " + (bits - 1) + ")";
            String ty = d.type(k);
            return switch (kind) {
                case LEFT_SHIFT -> "((" + ty + ") (" + l + ") << " + count + ")";
                case RIGHT_SHIFT -> "((" + ty + ") (" + l + ") >> " + count + ")";
                default -> "((" + ty + ") ((" + d.unsignedOf(k) + ") (" + ty + ") (" + l + ") >> " + count + "))";
            };
        }

        private String unary(TreePath p, UnaryTree u) {
            TreePath ep = new TreePath(p, u.getExpression());
            numKind(ep);
            String x = expr(ep);
            return switch (u.getKind()) {
                case POSTFIX_INCREMENT -> "(" + x + "++)";
                case POSTFIX_DECREMENT -> "(" + x + "--)";
                case PREFIX_INCREMENT -> "(++" + x + ")";
                case PREFIX_DECREMENT -> "(--" + x + ")";
                default -> "(" + Operators.java(u.getKind()) + x + ")";
            };
        }

        private void checkAssignable(TreePath vp) {
            ExpressionTree v = LoopNest.strip((ExpressionTree) vp.getLeaf());
            TypeMirror t = trees.getTypeMirror(vp);
            if (t != null && !t.getKind().isPrimitive()) {
                throw new KernelLanguageException(v, "arrays cannot be reassigned in kernels; write elements (x.set(i, v), a[i] = v)");
            }
            if (v instanceof MemberSelectTree ms && trees.getElement(vp) instanceof VariableElement ve && ve.getKind() == ElementKind.FIELD) {
                throw new KernelLanguageException(ms, isContext(ve.getEnclosingElement().asType())
                        ? "KernelContext fields are read-only" : "kernels cannot write fields; write to a kernel array");
            }
            if (v instanceof IdentifierTree && trees.getElement(vp) instanceof VariableElement ve && ve.getKind() == ElementKind.FIELD) {
                throw new KernelLanguageException(v, "kernels cannot write fields; write to a kernel array");
            }
        }

        private String assignment(TreePath p, AssignmentTree a) {
            TreePath vp = new TreePath(p, a.getVariable());
            checkAssignable(vp);
            return "(" + expr(vp) + " = " + expr(new TreePath(p, a.getExpression())) + ")";
        }

        private String compound(TreePath p, CompoundAssignmentTree a) {
            TreePath vp = new TreePath(p, a.getVariable()), ep = new TreePath(p, a.getExpression());
            checkAssignable(vp);
            TypeKind k = numKind(vp);
            numKind(ep);
            Tree.Kind op = Operators.binaryOf(a.getKind());
            boolean fp = k == TypeKind.FLOAT || k == TypeKind.DOUBLE;
            TypeKind ek = trees.getTypeMirror(ep).getKind();
            boolean fpOperand = ek == TypeKind.FLOAT || ek == TypeKind.DOUBLE;
            boolean expand = op == Tree.Kind.UNSIGNED_RIGHT_SHIFT || op == Tree.Kind.LEFT_SHIFT || op == Tree.Kind.RIGHT_SHIFT
                    || (op == Tree.Kind.REMAINDER && (fp || fpOperand));
            if (!expand) return "(" + expr(vp) + " " + Operators.java(a.getKind()) + " " + expr(ep) + ")";
            if (hasSideEffects(a.getVariable())) {
                throw new KernelLanguageException(a, "split this compound assignment: its target has side effects");
            }
            String target = expr(vp), rhs = expr(ep);
            String value;
            if (op == Tree.Kind.REMAINDER) {
                TypeKind wk = (k == TypeKind.DOUBLE || ek == TypeKind.DOUBLE) ? TypeKind.DOUBLE : TypeKind.FLOAT;
                value = (wk == TypeKind.FLOAT ? d.floatFn("fmod") : "fmod") + "((" + d.type(wk) + ") " + target + ", (" + d.type(wk) + ") " + rhs + ")";
            } else {
                TypeKind promoted = k == TypeKind.LONG ? TypeKind.LONG : TypeKind.INT;
                value = shift(op, promoted, target, rhs, ep);
            }
            return "(" + target + " = (" + d.type(k) + ") " + value + ")";
        }

        private boolean hasSideEffects(Tree t) {
            boolean[] found = {false};
            new com.sun.source.util.TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
                    found[0] = true;
                    return null;
                }

                @Override
                public Void visitAssignment(AssignmentTree node, Void unused) {
                    found[0] = true;
                    return null;
                }

                @Override
                public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
                    found[0] = true;
                    return null;
                }

                @Override
                public Void visitUnary(UnaryTree node, Void unused) {
                    switch (node.getKind()) {
                        case POSTFIX_INCREMENT, POSTFIX_DECREMENT, PREFIX_INCREMENT, PREFIX_DECREMENT -> found[0] = true;
                        default -> super.visitUnary(node, unused);
                    }
                    return null;
                }
            }.scan(t, null);
            return found[0];
        }

        private String cast(TreePath p, TypeCastTree c) {
            TypeMirror t = typeOf(p);
            if (!t.getKind().isPrimitive() || t.getKind() == TypeKind.CHAR) {
                throw new KernelLanguageException(c, "casts in kernels convert between numeric primitives, not to " + t);
            }
            TreePath ep = new TreePath(p, c.getExpression());
            numKind(ep);
            return "((" + d.type(t.getKind()) + ") " + expr(ep) + ")";
        }

        private String arrayAccess(TreePath p, ArrayAccessTree a) {
            TreePath ap = new TreePath(p, a.getExpression());
            if (!(LoopNest.strip(a.getExpression()) instanceof IdentifierTree)) {
                throw new KernelLanguageException(a, "index private and local arrays by their name");
            }
            return expr(ap) + "[" + top(new TreePath(p, a.getIndex())) + "]";
        }

        // ---- calls ----

        private String call(TreePath p, MethodInvocationTree mi) {
            TreePath sp = new TreePath(p, mi.getMethodSelect());
            Element el = trees.getElement(sp);
            if (!(el instanceof ExecutableElement m)) throw new KernelLanguageException(mi, "cannot resolve call " + mi.getMethodSelect());
            TypeElement cls = (TypeElement) m.getEnclosingElement();
            String cn = cls.getQualifiedName().toString();
            String name = m.getSimpleName().toString();
            List<TreePath> args = new ArrayList<>();
            for (ExpressionTree a : mi.getArguments()) args.add(new TreePath(p, a));
            if (arrayElement(cls.asType()) != null || cn.equals(API + "KernelArray")) return arrayCall(p, mi, name, args);
            if (cn.equals(API + "KernelContext")) return contextCall(mi, name, m, args);
            if (cn.equals("java.lang.Math") || cn.equals("java.lang.StrictMath")) return mathCall(mi, name, m, args);
            if (cn.equals(API + "KernelMath")) return kernelMathCall(mi, name, m, args);
            if (cn.equals("java.lang.Integer") || cn.equals("java.lang.Long")) return bitsCall(mi, name, cn.endsWith("Long") ? TypeKind.LONG : TypeKind.INT, args);
            if (cn.equals("java.lang.Float") || cn.equals("java.lang.Double")) return floatBitsCall(mi, name, args);
            if (deviceFunctions.containsKey(m)) return deviceCall(mi, m, args);
            if (cls.equals(owner) && hasAnnotation(m, "Kernel")) {
                throw new KernelLanguageException(mi, "kernels cannot call kernels; move the shared code into a @DeviceFunction");
            }
            if (cls.equals(owner)) {
                throw new KernelLanguageException(mi, name + " is not a @DeviceFunction; annotate it with @DeviceFunction to call it from kernels");
            }
            throw new KernelLanguageException(mi, "call to " + cls.getSimpleName() + "." + name + " is not in the kernel language: kernels call "
                    + "Math, KernelMath, Integer/Long/Float/Double bit functions, KernelContext intrinsics and @DeviceFunctions of their own class");
        }

        private String arrayCall(TreePath p, MethodInvocationTree mi, String name, List<TreePath> args) {
            if (!(mi.getMethodSelect() instanceof MemberSelectTree ms)) throw new KernelLanguageException(mi, "call array methods on a parameter");
            TreePath rp = new TreePath(new TreePath(p, ms), ms.getExpression());
            Element arr = trees.getElement(rp);
            if (!(LoopNest.strip(ms.getExpression()) instanceof IdentifierTree) || arr == null || names.get(arr) == null) {
                throw new KernelLanguageException(mi, "kernel arrays are used through the parameter's name (x.get(i))");
            }
            String n = names.get(arr);
            return switch (name) {
                case "get" -> n + "[" + top(args.get(0)) + "]";
                case "set" -> {
                    if (readOnly.contains(arr)) throw new KernelLanguageException(mi, n + " is @ReadOnly, so the kernel must not set() it; "
                            + "remove @ReadOnly or write to another array");
                    yield "(" + n + "[" + top(args.get(0)) + "] = " + expr(args.get(1)) + ")";
                }
                case "getSize" -> "((int) " + n + "__len)";
                case "getSizeLong" -> n + "__len";
                default -> throw new KernelLanguageException(mi, "kernels call get, set, getSize and getSizeLong on kernel arrays, not " + name
                        + "; do host work outside the kernel");
            };
        }

        private String contextCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
            if (!spmd && kernel) throw new KernelLanguageException(mi, "KernelContext is for SPMD kernels");
            switch (name) {
                case "localBarrier", "globalBarrier" -> {
                    return d.barrier();
                }
                case "globalFence" -> {
                    return d.globalFence();
                }
                case "subgroupSize" -> {
                    helpers.add("sq_sgsize");
                    return "sq_sgsize()";
                }
                case "subgroupLocalId" -> {
                    helpers.add("sq_sglane");
                    return "sq_sglane()";
                }
                case "localLinearId" -> {
                    helpers.add("sq_lid");
                    return "sq_lid()";
                }
                case "shuffle", "shuffleDown", "shuffleXor", "subgroupReduceAdd" -> {
                    if (!kernel) throw new KernelLanguageException(mi, "sub-group operations are allowed in kernels only, not in device functions; "
                            + "return the value and shuffle in the kernel");
                    TypeKind k = m.getParameters().get(0).asType().getKind();
                    String v = top(args.get(0));
                    exchange |= d.needsExchangeBuffer();
                    if (name.equals("subgroupReduceAdd")) {
                        helpers.add(d.hasHelper("sq_shfl") ? "sq_shfl" : "sq_sg_add_" + CDialect.letter(k));
                        return d.subgroupAdd(k, v);
                    }
                    String mode = name.equals("shuffleXor") ? "xor" : name.equals("shuffle") ? "idx" : "down";
                    helpers.add(d.hasHelper("sq_shfl") ? "sq_shfl" : "sq_shfl_" + mode + "_" + CDialect.letter(k));
                    return d.shuffle(mode, k, v, top(args.get(1)));
                }
                case "mma8x8x4", "mma16x8x4" -> {
                    if (!kernel) throw new KernelLanguageException(mi, "sub-group operations are allowed in kernels only, not in device functions; "
                            + "call " + name + " in the kernel");
                    // the accumulator is the argument before the last: (a, b, acc, at) or (a0, a1, b, acc, at)
                    TreePath acc = args.get(args.size() - 2);
                    Element accEl = trees.getElement(acc);
                    if (!(LoopNest.strip((ExpressionTree) acc.getLeaf()) instanceof IdentifierTree) || accEl == null || !privateArrays.contains(accEl)) {
                        throw new KernelLanguageException(mi, name + " accumulates into a private array of the kernel, by name "
                                + "(double[] acc = new double[K]), not local memory or an expression");
                    }
                    exchange |= d.needsExchangeBuffer();
                    String at = top(args.get(args.size() - 1));
                    if (name.equals("mma8x8x4")) {
                        helpers.add("sq_mma884");
                        return d.mma884(top(args.get(0)), top(args.get(1)), names.get(accEl), at);
                    }
                    helpers.add("sq_mma1684");
                    return d.mma1684(top(args.get(0)), top(args.get(1)), top(args.get(2)), names.get(accEl), at);
                }
                default -> {
                }
            }
            if (name.startsWith("allocate")) {
                String elem = name.replace("allocate", "").replace("LocalArray", "").toLowerCase(Locale.ROOT);
                throw new KernelLanguageException(mi, "local memory is allocated as the initializer of a declaration: " + elem + "[] t = ctx." + name + "(K)");
            }
            if (name.startsWith("atomic")) return atomic(mi, name, m, args);
            throw new KernelLanguageException(mi, "KernelContext." + name + " is not a kernel intrinsic");
        }

        private String atomic(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
            TypeMirror at = m.getParameters().get(0).asType();
            TreePath target = args.get(0);
            Element arr = trees.getElement(target);
            if (!(LoopNest.strip((ExpressionTree) target.getLeaf()) instanceof IdentifierTree) || arr == null || names.get(arr) == null) {
                throw new KernelLanguageException(mi, "the first argument of an atomic is a kernel array parameter or a local array, by name");
            }
            if (readOnly.contains(arr)) throw new KernelLanguageException(mi, names.get(arr) + " is @ReadOnly; atomics write it");
            String space = at instanceof ArrayType ? "local" : "global";
            TypeKind k = at instanceof ArrayType a ? a.getComponentType().getKind() : kindOfName(arrayElement(at));
            String ptr = "&" + names.get(arr) + "[" + top(args.get(1)) + "]";
            String v = top(args.get(2));
            switch (name) {
                case "atomicAdd" -> {
                    // OpenCL has no float atomics: a compare-and-swap helper (CUDA has none registered, nor needs one)
                    String helper = k == TypeKind.FLOAT || k == TypeKind.DOUBLE ? "sq_atomic_add_" + CDialect.letter(k) + "_" + space : null;
                    if (helper != null && d.hasHelper(helper)) helpers.add(helper);
                    return d.atomicAdd(k, space, ptr, v);
                }
                case "atomicMin", "atomicMax" -> {
                    return d.atomicMinMax(name.equals("atomicMax"), k, space, ptr, v);
                }
                case "atomicCompareAndSwap" -> {
                    return d.atomicCas(k, space, ptr, v, top(args.get(3)));
                }
                default -> throw new KernelLanguageException(mi, "KernelContext." + name + " is not a kernel intrinsic");
            }
        }

        private String mathCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
            List<String> a = new ArrayList<>();
            List<TypeKind> pk = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                TypeKind k = m.getParameters().get(i).asType().getKind();
                pk.add(k);
                a.add("(" + d.type(k) + ") " + expr(args.get(i)));
            }
            TypeKind k0 = pk.isEmpty() ? TypeKind.DOUBLE : pk.get(0);
            boolean isFloat = k0 == TypeKind.FLOAT;
            switch (name) {
                case "sqrt", "cbrt", "exp", "expm1", "log", "log1p", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
                     "sinh", "cosh", "tanh", "pow", "hypot", "floor", "ceil", "rint", "fma" -> {
                    return (isFloat ? d.floatFn(name) : name) + "(" + String.join(", ", a) + ")";
                }
                case "copySign" -> {
                    return (isFloat ? d.floatFn("copysign") : "copysign") + "(" + String.join(", ", a) + ")";
                }
                case "abs", "min", "max" -> {
                    if (k0 == TypeKind.INT || k0 == TypeKind.LONG) {
                        String h = "sq_" + name + "_" + CDialect.letter(k0);
                        helpers.add(h);
                        return h + "(" + String.join(", ", a) + ")";
                    }
                    String f = name.equals("abs") ? "fabs" : "f" + name;
                    return (isFloat ? d.floatFn(f) : f) + "(" + String.join(", ", a) + ")";
                }
                case "round" -> {
                    String h = isFloat ? "sq_round_f" : "sq_round_d";
                    helpers.add(h);
                    return h + "(" + a.get(0) + ")";
                }
                case "multiplyHigh", "unsignedMultiplyHigh" -> {
                    return d.multiplyHigh(name.startsWith("unsigned"), a.get(0), a.get(1));
                }
                case "signum" -> {
                    String h = isFloat ? "sq_signum_f" : "sq_signum_d";
                    helpers.add(h);
                    return h + "(" + a.get(0) + ")";
                }
                default -> throw new KernelLanguageException(mi, "Math." + name + " is not in the kernel language; supported: abs min max sqrt cbrt "
                        + "exp expm1 log log1p log10 sin cos tan asin acos atan atan2 sinh cosh tanh pow hypot floor ceil rint round signum copySign fma "
                        + "multiplyHigh unsignedMultiplyHigh");
            }
        }

        private String kernelMathCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
            List<String> a = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                a.add("(" + d.type(m.getParameters().get(i).asType().getKind()) + ") " + expr(args.get(i)));
            }
            boolean isFloat = m.getParameters().get(0).asType().getKind() == TypeKind.FLOAT;
            String fast = d.fast(name);
            if (fast != null) return fast + "(" + String.join(", ", a) + ")";
            return switch (name) {
                case "sqrt", "exp", "log", "sin", "cos", "pow", "rsqrt", "fma" -> (isFloat ? d.floatFn(name) : name) + "(" + String.join(", ", a) + ")";
                default -> throw new KernelLanguageException(mi, "KernelMath." + name + " is not a kernel intrinsic");
            };
        }

        private String bitsCall(MethodInvocationTree mi, String name, TypeKind k, List<TreePath> args) {
            if (!Set.of("bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "lowestOneBit", "highestOneBit", "rotateLeft", "rotateRight").contains(name)) {
                throw new KernelLanguageException(mi, (k == TypeKind.LONG ? "Long." : "Integer.") + name + " is not in the kernel language; "
                        + "supported: bitCount numberOfTrailingZeros numberOfLeadingZeros lowestOneBit highestOneBit rotateLeft rotateRight");
            }
            String l = CDialect.letter(k);
            String x = args.isEmpty() ? "" : "(" + d.type(k) + ") " + expr(args.get(0));
            switch (name) {
                case "bitCount" -> {
                    return d.bitCount(k, x);
                }
                case "numberOfLeadingZeros" -> {
                    return d.leadingZeros(k, x);
                }
                case "numberOfTrailingZeros", "lowestOneBit", "highestOneBit" -> {
                    String h = "sq_" + switch (name) {
                        case "numberOfTrailingZeros" -> "ntz";
                        case "lowestOneBit" -> "lob";
                        default -> "hob";
                    } + "_" + l;
                    helpers.add(h);
                    return h + "(" + x + ")";
                }
                case "rotateLeft", "rotateRight" -> {
                    String h = "sq_rot" + (name.equals("rotateLeft") ? "l" : "r") + "_" + l;
                    helpers.add(h);
                    return h + "(" + x + ", (int) " + expr(args.get(1)) + ")";
                }
                default -> throw new KernelLanguageException(mi, (k == TypeKind.LONG ? "Long." : "Integer.") + name + " is not in the kernel language; "
                        + "supported: bitCount numberOfTrailingZeros numberOfLeadingZeros lowestOneBit highestOneBit rotateLeft rotateRight");
            }
        }

        private String floatBitsCall(MethodInvocationTree mi, String name, List<TreePath> args) {
            if (!Set.of("floatToRawIntBits", "floatToIntBits", "intBitsToFloat", "doubleToRawLongBits", "doubleToLongBits", "longBitsToDouble").contains(name)) {
                throw new KernelLanguageException(mi, "Float/Double." + name + " is not in the kernel language; supported: "
                        + "floatToRawIntBits intBitsToFloat doubleToRawLongBits longBitsToDouble");
            }
            String x = args.isEmpty() ? "" : expr(args.get(0));
            return switch (name) {
                case "floatToRawIntBits", "floatToIntBits" -> d.floatToIntBits(x);
                case "intBitsToFloat" -> d.intBitsToFloat(x);
                case "doubleToRawLongBits", "doubleToLongBits" -> d.doubleToLongBits(x);
                case "longBitsToDouble" -> d.longBitsToDouble(x);
                default -> throw new KernelLanguageException(mi, "Float/Double." + name + " is not in the kernel language; supported: "
                        + "floatToRawIntBits intBitsToFloat doubleToRawLongBits longBitsToDouble");
            };
        }

        private String deviceCall(MethodInvocationTree mi, ExecutableElement m, List<TreePath> args) {
            List<String> a = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                TypeMirror pt = m.getParameters().get(i).asType();
                if (pt instanceof ArrayType) {
                    Element arr = trees.getElement(args.get(i));
                    if (!(LoopNest.strip((ExpressionTree) args.get(i).getLeaf()) instanceof IdentifierTree) || arr == null || names.get(arr) == null) {
                        throw new KernelLanguageException(args.get(i).getLeaf(), "pass private and local arrays to device functions by their name");
                    }
                    a.add(names.get(arr));
                    continue;
                }
                if (isContext(pt)) {
                    Element ce = trees.getElement(args.get(i));
                    if (kernel && !spmd) throw new KernelLanguageException(mi, "device function " + m.getSimpleName() + " takes a KernelContext, "
                            + "which is for SPMD kernels; a loop-parallel kernel passes its loop indices instead");
                    if (!(ce instanceof VariableElement cv) || cv.getKind() != ElementKind.PARAMETER || !isContext(cv.asType())) {
                        throw new KernelLanguageException(args.get(i).getLeaf(), "pass this function's own KernelContext parameter here");
                    }
                    continue;
                }
                String elem = arrayElement(pt);
                if (elem != null) {
                    Element arr = trees.getElement(args.get(i));
                    if (!(LoopNest.strip((ExpressionTree) args.get(i).getLeaf()) instanceof IdentifierTree) || arr == null || names.get(arr) == null) {
                        throw new KernelLanguageException(args.get(i).getLeaf(), "pass kernel arrays to device functions by their parameter name");
                    }
                    String n = names.get(arr);
                    if (readOnly.contains(arr) && writes(m, i, new HashSet<>())) {
                        throw new KernelLanguageException(args.get(i).getLeaf(), n + " is @ReadOnly but device function " + m.getSimpleName()
                                + " writes its parameter " + m.getParameters().get(i).getSimpleName() + "; remove @ReadOnly or do not write it");
                    }
                    boolean calleeReadOnly = hasAnnotation(m.getParameters().get(i), "ReadOnly");
                    a.add(readOnly.contains(arr) && !calleeReadOnly ? "(" + d.pointerType(cElem(elem)) + ") " + n : n);
                    a.add(n + "__len");
                } else {
                    a.add(top(args.get(i)));
                }
            }
            return "sq_fn_" + m.getSimpleName() + "(" + String.join(", ", a) + ")";
        }
    }

    /** Address space ("local" or "private") of each Java-array parameter of a device function, from its call sites. */
    private final Map<Element, String> arraySpaces = new HashMap<>();

    /**
     * Java arrays passed to device functions become pointers; OpenCL needs their address space in the signature.
     * It is read from the arguments: ctx.allocate...LocalArray gives local, new T[K] private, and an array parameter
     * of the calling device function passes its own space on (repeated until nothing changes).
     */
    private void inferArraySpaces(List<ExecutableElement> kernels) {
        Map<Element, String> varSpace = new HashMap<>();
        List<ExecutableElement> all = new ArrayList<>(kernels);
        all.addAll(deviceFunctions.keySet());
        for (ExecutableElement f : all) {
            new com.sun.source.util.TreePathScanner<Void, Void>() {
                @Override
                public Void visitVariable(VariableTree v, Void unused) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null && e.asType() instanceof ArrayType && v.getInitializer() != null) {
                        ExpressionTree init = LoopNest.strip(v.getInitializer());
                        boolean local = init instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms
                                && ms.getIdentifier().toString().startsWith("allocate");
                        varSpace.put(e, local ? "local" : "private");
                    }
                    return super.visitVariable(v, unused);
                }
            }.scan(trees.getPath(f), null);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ExecutableElement f : all) {
                boolean[] ch = {false};
                new com.sun.source.util.TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitMethodInvocation(MethodInvocationTree mi, Void unused) {
                        Element callee = trees.getElement(new TreePath(getCurrentPath(), mi.getMethodSelect()));
                        if (callee instanceof ExecutableElement m && deviceFunctions.containsKey(m)) {
                            for (int i = 0; i < mi.getArguments().size() && i < m.getParameters().size(); i++) {
                                VariableElement p = m.getParameters().get(i);
                                if (!(p.asType() instanceof ArrayType)) continue;
                                Element arg = trees.getElement(new TreePath(getCurrentPath(), mi.getArguments().get(i)));
                                String space = arg == null ? null : varSpace.getOrDefault(arg, arraySpaces.get(arg));
                                if (space == null) continue;
                                String before = arraySpaces.putIfAbsent(p, space);
                                if (before == null) ch[0] = true;
                                else if (!before.equals(space)) {
                                    throw new KernelLanguageException(mi.getArguments().get(i), "device function " + m.getSimpleName() + " receives "
                                            + space + " memory for " + p.getSimpleName() + " here and " + before + " memory elsewhere; "
                                            + "C needs one address space per parameter: write two functions");
                                }
                            }
                        }
                        return super.visitMethodInvocation(mi, unused);
                    }
                }.scan(trees.getPath(f), null);
                changed |= ch[0];
            }
        }
    }

    /** Whether device function f writes its array parameter number index: set(), an atomic, or a callee that writes it. */
    private boolean writes(ExecutableElement f, int index, Set<String> seen) {
        if (!seen.add(f.getSimpleName() + "#" + index)) return false;
        MethodTree t = deviceFunctions.get(f);
        if (t == null) return true;
        VariableElement param = f.getParameters().get(index);
        boolean[] found = {false};
        new com.sun.source.util.TreePathScanner<Void, Void>() {
            boolean isParam(ExpressionTree e) {
                return LoopNest.strip(e) instanceof IdentifierTree && param.equals(trees.getElement(new TreePath(getCurrentPath(), e)));
            }

            @Override
            public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                Element el = trees.getElement(new TreePath(getCurrentPath(), mi.getMethodSelect()));
                if (mi.getMethodSelect() instanceof MemberSelectTree ms && el != null && ms.getIdentifier().contentEquals("set")
                        && isParam(ms.getExpression())) found[0] = true;
                if (el instanceof ExecutableElement callee) {
                    for (int i = 0; i < mi.getArguments().size(); i++) {
                        if (!isParam(mi.getArguments().get(i))) continue;
                        if (callee.getSimpleName().toString().startsWith("atomic") && i == 0) found[0] = true;
                        if (deviceFunctions.containsKey(callee) && writes(callee, i, seen)) found[0] = true;
                    }
                }
                return super.visitMethodInvocation(mi, v);
            }
        }.scan(trees.getPath(f), null);
        return found[0];
    }

    private static TreePath pathOf(TreePath parent, Tree child) {
        // child may be nested inside parenthesis under parent; find it
        TreePath found = TreePath.getPath(parent, child);
        return found != null ? found : new TreePath(parent, child);
    }

    /** The dialect's form of the kernel's {@code @LaunchBounds} ("" without one); rejects bounds that are not positive. */
    private String launchBounds(ExecutableElement el) {
        AnnotationMirror a = annotation(el, "LaunchBounds");
        if (a == null) return "";
        int max = 0, min = 1;
        for (var e : a.getElementValues().entrySet()) {
            int v = ((Number) e.getValue().getValue()).intValue();
            if (e.getKey().getSimpleName().contentEquals("maxGroupSize")) max = v;
            else min = v;
        }
        if (max <= 0 || min <= 0) {
            // point at the annotation's line
            MethodTree method = trees.getTree(el);
            Tree at = method;
            for (AnnotationTree t : method.getModifiers().getAnnotations()) {
                if (t.getAnnotationType().toString().endsWith("LaunchBounds")) at = t;
            }
            throw new KernelLanguageException(at, "@LaunchBounds needs a positive maxGroupSize and minGroupsPerUnit, got " + max + " and " + min);
        }
        return d.launchBounds(max, min);
    }

    static boolean hasAnnotation(Element e, String simpleName) {
        return annotation(e, simpleName) != null;
    }

    /** The Squall API annotation {@code simpleName} on {@code e}, or null. */
    static AnnotationMirror annotation(Element e, String simpleName) {
        for (AnnotationMirror a : e.getAnnotationMirrors()) {
            if (((TypeElement) a.getAnnotationType().asElement()).getQualifiedName().contentEquals(API + simpleName)) return a;
        }
        return null;
    }
}
