package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

import javax.lang.model.element.*;
import javax.lang.model.util.Elements;
import java.util.*;

/**
 * Finds the methods that TornadoVM programs make kernels without an annotation: in TornadoVM any static method passed to
 * {@code TaskGraph.task("name", Owner::method, args...)} is a kernel. Reads the parse trees of the round's compilation
 * units that import the TornadoVM API ({@link TornadoNames#PACKAGE}), takes each {@code task} call whose second argument is
 * a method reference, and resolves {@code Owner} through the unit's classes, imports and package (no types exist yet).
 * The methods those kernels call in their own class, directly or through each other, become device functions.
 */
final class TaskKernels {
    /**
     * A method made a kernel by a task: the task's name as written ("?" when not a literal) and where the call is; or,
     * with no call site, the whole reason (a kernel that {@link TornadoRewrites} generated).
     */
    record Task(String taskName, String callSite) {
        String describe(String method) {
            if (callSite == null) return taskName;
            return method + " is a kernel because TaskGraph.task(\"" + taskName + "\", ...) at " + callSite + " runs it";
        }
    }

    private final Trees trees;
    private final Elements elements;
    /** Kernels by owner, each with the first task that runs it. */
    final Map<TypeElement, Map<ExecutableElement, Task>> kernels = new LinkedHashMap<>();

    TaskKernels(Trees trees, Elements elements) {
        this.trees = trees;
        this.elements = elements;
    }

    /** Scans the compilation units of {@code roots}. */
    void scan(Collection<? extends Element> roots) {
        Map<CompilationUnitTree, List<TypeElement>> units = new LinkedHashMap<>();
        for (Element e : roots) {
            if (!(e instanceof TypeElement t)) continue;
            TreePath p = trees.getPath(t);
            if (p != null) units.computeIfAbsent(p.getCompilationUnit(), k -> new ArrayList<>()).add(t);
        }
        for (var u : units.entrySet()) if (usesTornado(u.getKey())) scanUnit(u.getKey(), u.getValue());
    }

    private static boolean usesTornado(CompilationUnitTree cu) {
        if (cu.getPackageName() != null && cu.getPackageName().toString().startsWith(TornadoNames.PACKAGE)) return true;
        for (ImportTree i : cu.getImports()) {
            if (i.getQualifiedIdentifier().toString().startsWith(TornadoNames.PACKAGE + ".")) return true;
        }
        return false;
    }

    private void scanUnit(CompilationUnitTree cu, List<TypeElement> declared) {
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                String name = switch (mi.getMethodSelect()) {
                    case MemberSelectTree ms -> ms.getIdentifier().toString();
                    case IdentifierTree id -> id.getName().toString();
                    default -> "";
                };
                if (name.equals("task") && mi.getArguments().size() >= 2 && LoopNest.strip(mi.getArguments().get(1)) instanceof MemberReferenceTree ref
                        && ref.getMode() == MemberReferenceTree.ReferenceMode.INVOKE) {
                    found(cu, declared, mi, ref);
                }
                return super.visitMethodInvocation(mi, v);
            }
        }.scan(cu, null);
    }

    private void found(CompilationUnitTree cu, List<TypeElement> declared, MethodInvocationTree call, MemberReferenceTree ref) {
        TypeElement owner = resolve(ref.getQualifierExpression(), cu, declared);
        if (owner == null) return; // not a class we can see: javac reports what it cannot resolve
        String method = ref.getName().toString();
        ExecutableElement target = null;
        for (Element e : owner.getEnclosedElements()) {
            if (e instanceof ExecutableElement m && m.getKind() == ElementKind.METHOD && m.getSimpleName().contentEquals(method)) {
                if (target != null) {
                    trees.printMessage(javax.tools.Diagnostic.Kind.ERROR, "task kernel " + owner.getSimpleName() + "::" + method
                            + " is overloaded; devices find kernels by name: give the kernel a name of its own", ref, cu);
                    return;
                }
                target = m;
            }
        }
        if (target == null || KernelTypes.has(target, ApiNames.KERNEL) || trees.getTree(target) == null) return;
        String taskName = LoopNest.strip(call.getArguments().get(0)) instanceof LiteralTree l && l.getValue() instanceof String s ? s : "?";
        long line = cu.getLineMap().getLineNumber(trees.getSourcePositions().getStartPosition(cu, call));
        String file = cu.getSourceFile().getName();
        file = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        kernels.computeIfAbsent(owner, k -> new LinkedHashMap<>()).putIfAbsent(target, new Task(taskName, file + ":" + line));
    }

    /** The class a method reference's qualifier names: this unit's classes, imports, package, or a qualified name. */
    private TypeElement resolve(ExpressionTree q, CompilationUnitTree cu, List<TypeElement> declared) {
        String text = q.toString();
        String[] parts = text.split("\\.");
        TypeElement base = null;
        int used = 1;
        Deque<TypeElement> todo = new ArrayDeque<>(declared);
        while (!todo.isEmpty() && base == null) {
            TypeElement t = todo.pop();
            if (t.getSimpleName().contentEquals(parts[0])) base = t;
            for (Element e : t.getEnclosedElements()) if (e instanceof TypeElement inner) todo.add(inner);
        }
        if (base == null) {
            for (ImportTree i : cu.getImports()) {
                String id = i.getQualifiedIdentifier().toString();
                if (!i.isStatic() && id.endsWith("." + parts[0])) base = elements.getTypeElement(id);
            }
        }
        String pkg = cu.getPackageName() == null ? "" : cu.getPackageName().toString();
        if (base == null) base = elements.getTypeElement(pkg.isEmpty() ? parts[0] : pkg + "." + parts[0]);
        if (base == null) {
            for (ImportTree i : cu.getImports()) {
                String id = i.getQualifiedIdentifier().toString();
                if (!i.isStatic() && id.endsWith(".*") && base == null) base = elements.getTypeElement(id.substring(0, id.length() - 1) + parts[0]);
            }
        }
        if (base == null) {
            base = elements.getTypeElement(text);
            used = parts.length;
        }
        for (int i = used; i < parts.length && base != null; i++) base = elements.getTypeElement(base.getQualifiedName() + "." + parts[i]);
        return base;
    }

    /**
     * The static methods of {@code owner} that {@code kernels} call (unqualified or through the owner's simple name),
     * transitively, each with the kernel or function that first calls it; task kernels and {@code @Kernel}s excluded.
     */
    Map<ExecutableElement, String> deviceFunctions(TypeElement owner, Collection<ExecutableElement> kernels) {
        Map<String, ExecutableElement> byName = new HashMap<>();
        for (Element e : owner.getEnclosedElements()) {
            if (e instanceof ExecutableElement m && m.getKind() == ElementKind.METHOD && m.getModifiers().contains(Modifier.STATIC)) {
                byName.putIfAbsent(m.getSimpleName().toString(), m);
            }
        }
        Map<ExecutableElement, String> out = new LinkedHashMap<>();
        Deque<ExecutableElement> todo = new ArrayDeque<>(kernels);
        while (!todo.isEmpty()) {
            ExecutableElement caller = todo.pop();
            MethodTree t = trees.getTree(caller);
            if (t == null || t.getBody() == null) continue;
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                    String n = switch (mi.getMethodSelect()) {
                        case IdentifierTree id -> id.getName().toString();
                        case MemberSelectTree ms when ms.getExpression().toString().equals(owner.getSimpleName().toString()) -> ms.getIdentifier().toString();
                        default -> null;
                    };
                    ExecutableElement callee = n == null ? null : byName.get(n);
                    if (callee != null && !kernels.contains(callee) && !KernelTypes.has(callee, ApiNames.KERNEL) && !out.containsKey(callee)) {
                        out.put(callee, caller.getSimpleName().toString());
                        todo.add(callee);
                    }
                    return super.visitMethodInvocation(mi, v);
                }
            }.scan(t.getBody(), null);
        }
        return out;
    }
}
