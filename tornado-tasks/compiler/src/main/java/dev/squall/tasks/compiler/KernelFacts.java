package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import dev.squall.tasks.api.DeviceFunction;

import javax.lang.model.element.*;
import java.util.*;

/**
 * What the runtime needs to know of a kernel before it is attributed: whether its work-items
 * must run concurrently on the JVM (barriers, sub-group operations, also through device
 * functions) and how much local memory it declares. Read from parse trees by name.
 */
final class KernelFacts {
    private static final Set<String> COLLECTIVE = Set.of("localBarrier", "globalBarrier", "shuffle", "shuffleDown", "shuffleXor", "subgroupReduceAdd", "mma8x8x4", "mma16x8x4");

    private KernelFacts() {
    }

    static boolean collective(MethodTree kernel, TypeElement owner, Trees trees) {
        return kernel.getBody() != null && collective((Tree) kernel.getBody(), owner, trees);
    }

    /**
     * Whether {@code code} (a statement of a kernel or device function of {@code owner}) synchronises the work-group:
     * a barrier or a sub-group operation in it or in a device function it calls.
     */
    static boolean collective(Tree code, TypeElement owner, Trees trees) {
        Map<String, MethodTree> devFns = new HashMap<>();
        for (Element e : owner.getEnclosedElements()) {
            if (e instanceof ExecutableElement m && KernelTypes.isDeviceFunction(m)) devFns.put(m.getSimpleName().toString(), trees.getTree(m));
        }
        Deque<Tree> todo = new ArrayDeque<>(List.of(code));
        Set<Tree> seen = new HashSet<>();
        boolean[] found = {false};
        while (!todo.isEmpty() && !found[0]) {
            Tree m = todo.pop();
            if (!seen.add(m)) continue;
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
                    String n = switch (mi.getMethodSelect()) {
                        case MemberSelectTree ms -> ms.getIdentifier().toString();
                        case IdentifierTree id -> id.getName().toString();
                        default -> "";
                    };
                    if (COLLECTIVE.contains(n)) found[0] = true;
                    MethodTree callee = devFns.get(n);
                    if (callee != null && callee.getBody() != null) todo.add(callee.getBody());
                    return super.visitMethodInvocation(mi, p);
                }
            }.scan(m, null);
        }
        return found[0];
    }

    /** Bytes of local memory from ctx.allocateXLocalArray(K) with K a literal or a constant of the owner; 0 when unknown. */
    static long localMemoryBytes(MethodTree kernel, TypeElement owner) {
        long[] total = {0};
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
                if (mi.getMethodSelect() instanceof MemberSelectTree ms && mi.getArguments().size() == 1) {
                    String n = ms.getIdentifier().toString();
                    int bytes = switch (n) {
                        case "allocateIntLocalArray", "allocateFloatLocalArray" -> 4;
                        case "allocateLongLocalArray", "allocateDoubleLocalArray" -> 8;
                        default -> 0;
                    };
                    Long k = bytes == 0 ? null : value(mi.getArguments().get(0), owner);
                    if (k != null) total[0] += bytes * k;
                }
                return super.visitMethodInvocation(mi, p);
            }
        }.scan(kernel.getBody(), null);
        return total[0];
    }

    private static Long value(ExpressionTree e, TypeElement owner) {
        e = LoopNest.strip(e);
        if (e instanceof LiteralTree l && l.getValue() instanceof Integer i) return (long) i;
        if (e instanceof IdentifierTree id) {
            for (Element t = owner; t instanceof TypeElement te; t = te.getEnclosingElement()) {
                for (Element m : te.getEnclosedElements()) {
                    if (m instanceof VariableElement v && v.getSimpleName().contentEquals(id.getName()) && v.getConstantValue() instanceof Integer i) {
                        return (long) i;
                    }
                }
            }
            return null;
        }
        if (e instanceof BinaryTree b) {
            Long x = value(b.getLeftOperand(), owner), y = value(b.getRightOperand(), owner);
            if (x == null || y == null) return null;
            return switch (b.getKind()) {
                case PLUS -> x + y;
                case MINUS -> x - y;
                case MULTIPLY -> x * y;
                case DIVIDE -> y == 0 ? null : x / y;
                default -> null;
            };
        }
        return null;
    }
}
