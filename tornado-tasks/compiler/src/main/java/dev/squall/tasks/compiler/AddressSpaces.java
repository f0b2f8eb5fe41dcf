package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import java.util.*;

/**
 * The address space ("local" or "private") of each Java-array parameter of a device function. Java arrays passed to
 * device functions become pointers, and OpenCL needs their address space in the signature. It is read from the
 * arguments: {@code ctx.allocate...LocalArray} gives local, {@code new T[K]} private, and an array parameter of the
 * calling device function passes its own space on (repeated until nothing changes).
 */
final class AddressSpaces {
    private final Map<Element, String> spaces = new HashMap<>();

    private AddressSpaces() {
    }

    /** The spaces of the array parameters of {@code deviceFunctions}, from their calls in those and in {@code kernels}. */
    static AddressSpaces infer(Trees trees, List<ExecutableElement> kernels, Map<ExecutableElement, MethodTree> deviceFunctions) {
        AddressSpaces out = new AddressSpaces();
        Map<Element, String> varSpace = new HashMap<>();
        List<ExecutableElement> all = new ArrayList<>(kernels);
        all.addAll(deviceFunctions.keySet());
        for (ExecutableElement k : kernels) {
            for (VariableElement p : k.getParameters()) if (p.asType() instanceof ArrayType) varSpace.put(p, "global"); // a TornadoVM kernel's Java array
        }
        for (ExecutableElement f : all) {
            new TreePathScanner<Void, Void>() {
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
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitMethodInvocation(MethodInvocationTree mi, Void unused) {
                        Element callee = trees.getElement(new TreePath(getCurrentPath(), mi.getMethodSelect()));
                        if (callee instanceof ExecutableElement m && deviceFunctions.containsKey(m)) {
                            for (int i = 0; i < mi.getArguments().size() && i < m.getParameters().size(); i++) {
                                VariableElement p = m.getParameters().get(i);
                                if (!(p.asType() instanceof ArrayType)) continue;
                                Element arg = trees.getElement(new TreePath(getCurrentPath(), mi.getArguments().get(i)));
                                String space = arg == null ? null : varSpace.getOrDefault(arg, out.spaces.get(arg));
                                if (space == null) continue;
                                String before = out.spaces.putIfAbsent(p, space);
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
        return out;
    }

    /** The space of array parameter {@code p}: private unless a call passes it local memory. */
    String of(VariableElement p) {
        return spaces.getOrDefault(p, "private");
    }
}
