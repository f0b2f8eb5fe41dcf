package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelMath;
import dev.squall.tasks.api.ReadOnly;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import java.util.*;

/**
 * Translates expressions of one kernel or device function to fully parenthesised C with Java's meaning
 * (masked shifts, {@code fmod}, constants), and calls: array methods and device functions here, intrinsics
 * through {@link IntrinsicTranslator}.
 */
final class ExpressionTranslator {
    private final CTranslator program;
    private final Trees trees;
    private final CDialect d;
    private final FunctionScope scope;
    private final IntrinsicTranslator intrinsics;

    ExpressionTranslator(CTranslator program, FunctionScope scope) {
        this.program = program;
        this.trees = program.trees;
        this.d = program.d;
        this.scope = scope;
        this.intrinsics = new IntrinsicTranslator(program, scope, this);
    }

    private String cElem(String javaElem) {
        return d.type(KernelTypes.kindOfName(javaElem));
    }

    /** The C literal of a Java constant value (minimum values and negatives parenthesised), or null for a non-numeric one. */
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

    /** The value of an integer compile-time constant expression (literals, static final constants, arithmetic), or null. */
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

    /** An expression without its outer parentheses (statement level). */
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

    /** An expression, fully parenthesised. */
    String expr(TreePath p) {
        ExpressionTree e = (ExpressionTree) p.getLeaf();
        TypeMirror et = trees.getTypeMirror(p);
        if (et != null && et.getKind() == TypeKind.ERROR) throw new CTranslator.AlreadyReported();
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
                if (KernelTypes.isContext(el.asType())) {
                    throw new KernelLanguageException(id, "the KernelContext is used through its fields and methods (ctx.globalIdx, ctx.localBarrier()), "
                            + "or passed to a @DeviceFunction");
                }
                String n = scope.name(el);
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

    String field(Tree t, VariableElement f) {
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
            if (KernelTypes.isContext(ve.getEnclosingElement().asType())) return intrinsics.contextField(ms, name);
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
        String n = arr != null ? scope.name(arr) : null;
        if (n == null) throw new KernelLanguageException(ms, "length of " + ms.getExpression() + " is not available");
        if (arr.getKind() == ElementKind.PARAMETER && scope.kernel) return "((int) " + n + "__len)"; // a TornadoVM kernel's Java array
        if (arr.getKind() == ElementKind.PARAMETER) {
            throw new KernelLanguageException(ms, "the length of an array parameter is not known in C; pass it as an int parameter");
        }
        return "((int) (sizeof(" + n + ") / sizeof(" + n + "[0])))";
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
            throw new KernelLanguageException(ms, KernelTypes.isContext(ve.getEnclosingElement().asType())
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

    private String call(TreePath p, MethodInvocationTree mi) {
        TreePath sp = new TreePath(p, mi.getMethodSelect());
        Element el = trees.getElement(sp);
        if (!(el instanceof ExecutableElement m)) throw new KernelLanguageException(mi, "cannot resolve call " + mi.getMethodSelect());
        TypeElement cls = (TypeElement) m.getEnclosingElement();
        String cn = cls.getQualifiedName().toString();
        String name = m.getSimpleName().toString();
        List<TreePath> args = new ArrayList<>();
        for (ExpressionTree a : mi.getArguments()) args.add(new TreePath(p, a));
        if (KernelTypes.arrayElement(cls.asType()) != null || cn.equals(ApiNames.KERNEL_ARRAY) || cn.equals(TornadoNames.NATIVE_ARRAY)) return arrayCall(p, mi, name, args);
        if (cn.equals(ApiNames.KERNEL_CONTEXT) || cn.equals(TornadoNames.KERNEL_CONTEXT)) return intrinsics.contextCall(mi, name, m, args);
        if (cn.equals("java.lang.Math") || cn.equals("java.lang.StrictMath")) return intrinsics.mathCall(mi, name, m, args);
        if (cn.equals(TornadoNames.TORNADO_MATH)) return intrinsics.tornadoMathCall(mi, name, m, args);
        if (cn.equals(ApiNames.KERNEL_MATH)) return intrinsics.kernelMathCall(mi, name, m, args);
        if (cn.equals("java.lang.Integer") || cn.equals("java.lang.Long")) return intrinsics.bitsCall(mi, name, cn.equals("java.lang.Long") ? TypeKind.LONG : TypeKind.INT, args);
        if (cn.equals("java.lang.Float") || cn.equals("java.lang.Double")) return intrinsics.floatBitsCall(mi, name, args);
        if (program.deviceFunctions.containsKey(m)) return deviceCall(mi, m, args);
        if (cls.equals(program.owner) && KernelTypes.has(m, ApiNames.KERNEL)) {
            throw new KernelLanguageException(mi, "kernels cannot call kernels; move the shared code into a @DeviceFunction");
        }
        if (cls.equals(program.owner)) {
            throw new KernelLanguageException(mi, name + " is not a @DeviceFunction; annotate it with @DeviceFunction to call it from kernels");
        }
        throw new KernelLanguageException(mi, "call to " + cls.getSimpleName() + "." + name + " is not in the kernel language: kernels call "
                + "Math, KernelMath, Integer/Long/Float/Double bit functions, KernelContext intrinsics and @DeviceFunctions of their own class");
    }

    private String arrayCall(TreePath p, MethodInvocationTree mi, String name, List<TreePath> args) {
        if (!(mi.getMethodSelect() instanceof MemberSelectTree ms)) throw new KernelLanguageException(mi, "call array methods on a parameter");
        TreePath rp = new TreePath(new TreePath(p, ms), ms.getExpression());
        Element arr = trees.getElement(rp);
        if (!(LoopNest.strip(ms.getExpression()) instanceof IdentifierTree) || arr == null || scope.name(arr) == null) {
            throw new KernelLanguageException(mi, "kernel arrays are used through the parameter's name (x.get(i))");
        }
        String n = scope.name(arr);
        return switch (name) {
            case "get" -> n + "[" + top(args.get(0)) + "]";
            case "set" -> {
                if (scope.isReadOnly(arr)) throw new KernelLanguageException(mi, n + " is @ReadOnly, so the kernel must not set() it; "
                        + "remove @ReadOnly or write to another array");
                yield "(" + n + "[" + top(args.get(0)) + "] = " + expr(args.get(1)) + ")";
            }
            case "getSize" -> "((int) " + n + "__len)";
            case "getSizeLong" -> n + "__len";
            default -> throw new KernelLanguageException(mi, "kernels call get, set, getSize and getSizeLong on kernel arrays, not " + name
                    + "; do host work outside the kernel");
        };
    }

    private String deviceCall(MethodInvocationTree mi, ExecutableElement m, List<TreePath> args) {
        List<String> a = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            TypeMirror pt = m.getParameters().get(i).asType();
            if (pt instanceof ArrayType) {
                Element arr = trees.getElement(args.get(i));
                if (!(LoopNest.strip((ExpressionTree) args.get(i).getLeaf()) instanceof IdentifierTree) || arr == null || scope.name(arr) == null) {
                    throw new KernelLanguageException(args.get(i).getLeaf(), "pass private and local arrays to device functions by their name");
                }
                a.add(scope.name(arr));
                continue;
            }
            if (KernelTypes.isContext(pt)) {
                Element ce = trees.getElement(args.get(i));
                if (scope.kernel && !scope.spmd) throw new KernelLanguageException(mi, "device function " + m.getSimpleName() + " takes a KernelContext, "
                        + "which is for SPMD kernels; a loop-parallel kernel passes its loop indices instead");
                if (!(ce instanceof VariableElement cv) || cv.getKind() != ElementKind.PARAMETER || !KernelTypes.isContext(cv.asType())) {
                    throw new KernelLanguageException(args.get(i).getLeaf(), "pass this function's own KernelContext parameter here");
                }
                continue;
            }
            String elem = KernelTypes.arrayElement(pt);
            if (elem != null) {
                Element arr = trees.getElement(args.get(i));
                if (!(LoopNest.strip((ExpressionTree) args.get(i).getLeaf()) instanceof IdentifierTree) || arr == null || scope.name(arr) == null) {
                    throw new KernelLanguageException(args.get(i).getLeaf(), "pass kernel arrays to device functions by their parameter name");
                }
                String n = scope.name(arr);
                if (scope.isReadOnly(arr) && program.writes(m, i, new HashSet<>())) {
                    throw new KernelLanguageException(args.get(i).getLeaf(), n + " is @ReadOnly but device function " + m.getSimpleName()
                            + " writes its parameter " + m.getParameters().get(i).getSimpleName() + "; remove @ReadOnly or do not write it");
                }
                boolean calleeReadOnly = KernelTypes.has(m.getParameters().get(i), ApiNames.READ_ONLY);
                a.add(scope.isReadOnly(arr) && !calleeReadOnly ? "(" + d.pointerType(cElem(elem)) + ") " + n : n);
                a.add(n + "__len");
            } else {
                a.add(top(args.get(i)));
            }
        }
        return "sq_fn_" + m.getSimpleName() + "(" + String.join(", ", a) + ")";
    }
}
