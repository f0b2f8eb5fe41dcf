package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.Unroll;

import javax.lang.model.element.*;
import java.util.*;

/**
 * Prints kernel statements back as Java for the generated JVM launcher, which lives in another
 * class: names of the owner's members are qualified (constants are inlined, since they may be
 * private), everything else is printed as written. Works on parse trees, before attribution; the
 * launcher is compiled by javac in the next round, so anything it cannot resolve is reported there.
 */
final class JavaBodyPrinter {
    private final Map<String, Element> members = new HashMap<>();
    private final Deque<Set<String>> scopes = new ArrayDeque<>();
    /** Replaces a parallel loop statement by caller-supplied code (the launcher's range loop). */
    private final Map<Tree, java.util.function.BiConsumer<StringBuilder, String>> replacements = new HashMap<>();
    /** Prints some expressions its own way (the JVM work-group runner's ids and per-work-item variables); null keeps the default. */
    private java.util.function.Function<ExpressionTree, String> override = e -> null;
    /** The name a local is declared under (the work-group runner renames the locals of device functions it inlines). */
    private java.util.function.Function<VariableTree, String> declName = v -> v.getName().toString();

    private TypeElement owner;
    /** Qualified name printed for the owner's members (the owner itself, or its @Fp32Variant twin). */
    private String self;
    /** Rewrite double to float (printing an @Fp32Variant twin), and keep @Parallel on loop variables. */
    private boolean fp32;
    /** The owner's source annotations, to find the loop annotations the twin keeps. */
    private SourceAnnotations annotations;

    JavaBodyPrinter(TypeElement owner, Collection<String> params) {
        this.owner = owner;
        this.self = owner.getQualifiedName().toString();
        for (Element t = owner; t instanceof TypeElement te; t = te.getEnclosingElement()) {
            for (Element e : te.getEnclosedElements()) {
                String n = e.getSimpleName().toString();
                if (e.getKind().isField() || e.getKind() == ElementKind.METHOD || e.getKind().isClass() || e.getKind().isInterface()) {
                    members.putIfAbsent(n, e);
                }
            }
        }
        scopes.push(new HashSet<>(params));
    }

    /** Prints the owner's code, whose annotations {@code annotations} resolves, as its single-precision twin {@code twinQualifiedName}. */
    JavaBodyPrinter asFp32Twin(String twinQualifiedName, SourceAnnotations annotations) {
        this.self = twinQualifiedName;
        this.fp32 = true;
        this.annotations = annotations;
        return this;
    }

    /** A type as written, converted for the twin: double to float, DoubleArray to FloatArray. */
    String type(Tree t) {
        String s = t.toString();
        // qualified: the owner may import DoubleArray by name and not FloatArray
        return fp32 ? s.replaceAll("\\bdouble\\b", "float").replaceAll("\\b(dev\\.squall\\.tasks\\.api\\.)?DoubleArray\\b", "dev.squall.tasks.api.FloatArray") : s;
    }

    void replace(Tree t, java.util.function.BiConsumer<StringBuilder, String> printer) {
        replacements.put(t, printer);
    }

    void override(java.util.function.Function<ExpressionTree, String> printer) {
        this.override = printer;
    }

    void declName(java.util.function.Function<VariableTree, String> namer) {
        this.declName = namer;
    }

    void declare(String name) {
        scopes.peek().add(name);
    }

    private boolean isLocal(String n) {
        for (Set<String> s : scopes) if (s.contains(n)) return true;
        return false;
    }

    // ---- statements ----

    void statements(List<? extends StatementTree> ss, StringBuilder out, String ind) {
        for (StatementTree s : ss) stmt(s, out, ind);
    }

    void stmt(StatementTree s, StringBuilder out, String ind) {
        var rep = replacements.get(s);
        if (rep != null) {
            rep.accept(out, ind);
            return;
        }
        switch (s) {
            case BlockTree b -> {
                out.append(ind).append("{\n");
                scopes.push(new HashSet<>());
                statements(b.getStatements(), out, ind + "    ");
                scopes.pop();
                out.append(ind).append("}\n");
            }
            case VariableTree v -> out.append(ind).append(varDecl(v)).append(";\n");
            case ExpressionStatementTree e -> out.append(ind).append(top(e.getExpression())).append(";\n");
            case IfTree i -> {
                out.append(ind).append("if (").append(top(i.getCondition())).append(")\n");
                nested(i.getThenStatement(), out, ind);
                if (i.getElseStatement() != null) {
                    out.append(ind).append("else\n");
                    nested(i.getElseStatement(), out, ind);
                }
            }
            case ForLoopTree f -> {
                scopes.push(new HashSet<>());
                StringBuilder init = new StringBuilder();
                List<? extends StatementTree> in = f.getInitializer();
                for (int k = 0; k < in.size(); k++) {
                    StatementTree st = in.get(k);
                    if (st instanceof VariableTree v) {
                        if (k == 0) {
                            init.append(varDecl(v));
                        } else {
                            declare(v.getName().toString());
                            init.append(declName.apply(v)).append(v.getInitializer() != null ? " = " + top(v.getInitializer()) : "");
                        }
                    } else {
                        if (k > 0) init.append(", ");
                        init.append(top(((ExpressionStatementTree) st).getExpression()));
                    }
                    if (k + 1 < in.size() && st instanceof VariableTree) init.append(", ");
                }
                StringBuilder upd = new StringBuilder();
                for (ExpressionStatementTree u : f.getUpdate()) {
                    if (!upd.isEmpty()) upd.append(", ");
                    upd.append(top(u.getExpression()));
                }
                out.append(ind).append("for (").append(init).append("; ").append(f.getCondition() == null ? "" : top(f.getCondition()))
                        .append("; ").append(upd).append(")\n");
                nested(f.getStatement(), out, ind);
                scopes.pop();
            }
            case WhileLoopTree w -> {
                out.append(ind).append("while (").append(top(w.getCondition())).append(")\n");
                nested(w.getStatement(), out, ind);
            }
            case DoWhileLoopTree d -> {
                out.append(ind).append("do\n");
                nested(d.getStatement(), out, ind);
                out.append(ind).append("while (").append(top(d.getCondition())).append(");\n");
            }
            case SwitchTree sw -> {
                out.append(ind).append("switch (").append(top(sw.getExpression())).append(") {\n");
                scopes.push(new HashSet<>());
                for (CaseTree c : sw.getCases()) {
                    String labels = c.getExpressions().isEmpty() ? "default" : "case " + String.join(", ", c.getExpressions().stream().map(this::top).toList());
                    if (c.getCaseKind() == CaseTree.CaseKind.RULE) {
                        out.append(ind).append("    ").append(labels).append(" ->\n");
                        Tree body = c.getBody();
                        if (body instanceof StatementTree st) nestedBlock(st, out, ind + "    ");
                        else out.append(ind).append("        ").append(top((ExpressionTree) body)).append(";\n");
                    } else {
                        out.append(ind).append("    ").append(labels).append(":\n");
                        statements(c.getStatements(), out, ind + "        ");
                    }
                }
                scopes.pop();
                out.append(ind).append("}\n");
            }
            case BreakTree b -> out.append(ind).append("break").append(b.getLabel() != null ? " " + b.getLabel() : "").append(";\n");
            case ContinueTree c -> out.append(ind).append("continue").append(c.getLabel() != null ? " " + c.getLabel() : "").append(";\n");
            case ReturnTree r -> out.append(ind).append("return").append(r.getExpression() != null ? " " + top(r.getExpression()) : "").append(";\n");
            case EmptyStatementTree e -> out.append(ind).append(";\n");
            default -> throw new Unsupported(); // outside the language: the typed pass reports it
        }
    }

    private void nested(StatementTree s, StringBuilder out, String ind) {
        if (s instanceof BlockTree) stmt(s, out, ind);
        else nestedBlock(s, out, ind);
    }

    private void nestedBlock(StatementTree s, StringBuilder out, String ind) {
        out.append(ind).append("{\n");
        scopes.push(new HashSet<>());
        stmt(s, out, ind + "    ");
        scopes.pop();
        out.append(ind).append("}\n");
    }

    String varDecl(VariableTree v) {
        String type = v.getType() == null ? "var" : type(v.getType());
        StringBuilder sb = new StringBuilder();
        if (fp32) {
            // the twin is kernel source too: keep the loop annotations
            for (AnnotationTree a : v.getModifiers().getAnnotations()) {
                if (annotations.is(a, ApiNames.PARALLEL)) sb.append("@").append(ApiNames.PARALLEL).append(' ');
                if (annotations.is(a, ApiNames.UNROLL)) {
                    sb.append("@").append(ApiNames.UNROLL).append(a.getArguments().isEmpty() ? "" : "(" + a.getArguments().get(0) + ")").append(' ');
                }
            }
        }
        sb.append(type).append(' ').append(declName.apply(v));
        if (v.getInitializer() != null) sb.append(" = ").append(top(v.getInitializer()));
        declare(v.getName().toString());
        return sb.toString();
    }

    // ---- expressions ----

    /** An expression without outer parentheses (statement level). */
    String top(ExpressionTree e) {
        String s = expr(e);
        return s.startsWith("(") && matchingClose(s) == s.length() - 1 ? s.substring(1, s.length() - 1) : s;
    }

    private static int matchingClose(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') return -1; // literals: do not try
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return i;
        }
        return -1;
    }

    String expr(ExpressionTree e) {
        String own = override.apply(e);
        if (own != null) return own;
        return switch (e) {
            case ParenthesizedTree p -> expr(p.getExpression());
            case LiteralTree l -> literal(convert(l.getValue()));
            case IdentifierTree id -> identifier(id.getName().toString());
            case MemberSelectTree ms -> memberSelect(ms);
            case BinaryTree b -> "(" + expr(b.getLeftOperand()) + " " + Operators.java(b.getKind()) + " " + expr(b.getRightOperand()) + ")";
            case UnaryTree u -> switch (u.getKind()) {
                case POSTFIX_INCREMENT -> "(" + expr(u.getExpression()) + "++)";
                case POSTFIX_DECREMENT -> "(" + expr(u.getExpression()) + "--)";
                default -> "(" + Operators.java(u.getKind()) + expr(u.getExpression()) + ")";
            };
            case AssignmentTree a -> "(" + expr(a.getVariable()) + " = " + expr(a.getExpression()) + ")";
            case CompoundAssignmentTree a -> "(" + expr(a.getVariable()) + " " + Operators.java(a.getKind()) + " " + expr(a.getExpression()) + ")";
            case ConditionalExpressionTree c -> "(" + expr(c.getCondition()) + " ? " + expr(c.getTrueExpression()) + " : " + expr(c.getFalseExpression()) + ")";
            case TypeCastTree c -> "((" + type(c.getType()) + ") " + expr(c.getExpression()) + ")";
            case ArrayAccessTree a -> expr(a.getExpression()) + "[" + top(a.getIndex()) + "]";
            case MethodInvocationTree mi -> {
                String args = String.join(", ", mi.getArguments().stream().map(this::top).toList());
                if (fp32 && mi.getMethodSelect() instanceof MemberSelectTree ms && isMath(ms.getExpression())) {
                    yield fp32Math(ms.getIdentifier().toString(), args);
                }
                String sel = mi.getMethodSelect() instanceof IdentifierTree id ? methodName(id.getName().toString()) : expr(mi.getMethodSelect());
                yield sel + "(" + args + ")";
            }
            case NewArrayTree na -> {
                StringBuilder sb = new StringBuilder();
                if (na.getType() != null) {
                    sb.append("new ").append(type(na.getType()));
                    for (ExpressionTree d : na.getDimensions()) sb.append('[').append(top(d)).append(']');
                    if (na.getDimensions().isEmpty()) sb.append("[]");
                }
                if (na.getInitializers() != null) {
                    sb.append(" {").append(String.join(", ", na.getInitializers().stream().map(this::top).toList())).append('}');
                }
                yield sb.toString();
            }
            default -> throw new Unsupported();
        };
    }

    /** A construct the launcher cannot print; the kernel gets a stub and the typed pass reports the error at its line. */
    static final class Unsupported extends RuntimeException {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    private String identifier(String n) {
        if (isLocal(n)) return n;
        Element m = members.get(n);
        if (m instanceof VariableElement v) {
            Object c = v.getConstantValue();
            if (c != null) return literal(convert(c));
            return qualified(v) + "." + n;
        }
        if (m instanceof TypeElement t) return t.getQualifiedName().toString();
        return n;
    }

    private String methodName(String n) {
        if (isLocal(n)) return n;
        Element m = members.get(n);
        if (m instanceof ExecutableElement) return qualified(m) + "." + n;
        return n;
    }

    private String qualified(Element member) {
        return member.getEnclosingElement().equals(owner) ? self : ((TypeElement) member.getEnclosingElement()).getQualifiedName().toString();
    }

    private Object convert(Object v) {
        return fp32 && v instanceof Double d ? (Object) d.floatValue() : v;
    }

    private String memberSelect(MemberSelectTree ms) {
        String name = ms.getIdentifier().toString();
        if (fp32) {
            if (name.equals("allocateDoubleLocalArray")) name = "allocateFloatLocalArray";
            if (LoopNest.strip(ms.getExpression()) instanceof IdentifierTree id && id.getName().contentEquals("Double")
                    && Set.of("MAX_VALUE", "MIN_VALUE", "POSITIVE_INFINITY", "NEGATIVE_INFINITY", "NaN").contains(name)) {
                return "Float." + name;
            }
        }
        return expr(ms.getExpression()) + "." + name;
    }

    private static boolean isMath(ExpressionTree e) {
        String s = LoopNest.strip(e).toString();
        return s.equals("Math") || s.equals("java.lang.Math");
    }

    /** Math in single precision: KernelMath where it has float versions, Math where Java overloads float, else a cast. */
    private static String fp32Math(String name, String args) {
        return switch (name) {
            case "sqrt", "exp", "log", "sin", "cos", "pow", "fma" -> "dev.squall.tasks.api.KernelMath." + name + "(" + args + ")";
            case "abs", "min", "max", "signum", "copySign", "round" -> "Math." + name + "(" + args + ")";
            default -> "((float) Math." + name + "(" + args + "))";
        };
    }

    /** A Java literal for a constant value. */
    static String literal(Object v) {
        return switch (v) {
            case Integer i -> i == Integer.MIN_VALUE ? "(-2147483647 - 1)" : i < 0 ? "(" + i + ")" : i.toString();
            case Long l -> l == Long.MIN_VALUE ? "(-9223372036854775807L - 1L)" : l < 0 ? "(" + l + "L)" : l + "L";
            case Float f -> f.isNaN() ? "Float.NaN" : f.isInfinite() ? (f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY")
                    : (f < 0 || (f == 0 && 1 / f < 0) ? "(" + f + "f)" : f + "f");
            case Double d -> d.isNaN() ? "Double.NaN" : d.isInfinite() ? (d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY")
                    : (d < 0 || (d == 0 && 1 / d < 0) ? "(" + d + ")" : d.toString());
            case Short s -> "((short) " + s + ")";
            case Byte b -> "((byte) " + b + ")";
            case Character c -> "((char) " + (int) c + ")"; // a unicode escape would be read before lexing
            case Boolean b -> b.toString();
            case String s -> throw new Unsupported(); // no strings in kernels
            case null -> "null";
            default -> v.toString();
        };
    }
}
