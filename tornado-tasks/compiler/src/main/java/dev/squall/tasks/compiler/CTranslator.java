package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.squall.tasks.api.LaunchBounds;

import javax.lang.model.element.*;
import java.util.*;

/**
 * Translates the kernels and device functions of one owner class to one C program (OpenCL C or
 * CUDA C, by {@link CDialect}), from javac's attributed trees. Everything outside the kernel
 * language (LANGUAGE.md) is a {@link KernelLanguageException} at the offending tree; errors of all
 * functions are collected. This class holds what the functions of the program share (the used helpers, the
 * device functions and their array parameters' {@link AddressSpaces}); {@link FunctionTranslator} translates each
 * function, through {@link StatementTranslator}, {@link ExpressionTranslator} and {@link IntrinsicTranslator}.
 */
final class CTranslator {
    static final Set<String> RESERVED = new HashSet<>(Arrays.asList((
            "auto bool break case char const continue default do double else enum extern float for goto if inline int long "
            + "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while "
            + "kernel __kernel global __global local __local constant __constant private __private read_only write_only "
            + "half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t event_t image2d_t image3d_t sampler_t "
            + "template typename namespace operator virtual friend class new delete this using mutable explicit export asm "
            + "true false NULL INFINITY NAN threadIdx blockIdx blockDim gridDim warpSize dim3 "
            + "sqrt cbrt exp expm1 log log1p log10 sin cos tan asin acos atan atan2 sinh cosh tanh pow hypot floor ceil rint "
            + "round fma fmod fabs fmin fmax copysign min max abs clamp mix step sign select any all dot length distance "
            + "native_exp native_exp2 native_log native_sin native_cos native_sqrt native_rsqrt native_divide rsqrt popcount clz barrier "
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

    final Trees trees;
    final CompilationUnitTree cu;
    final TypeElement owner;
    final CDialect d;
    /** Resolves annotations on the owner's local variables (@Unroll, @Parallel). */
    final SourceAnnotations annotations;
    /** The helpers (sq_*) the program uses; the dialect emits them and what they need. */
    final Set<String> helpers = new TreeSet<>();
    final Map<ExecutableElement, MethodTree> deviceFunctions = new LinkedHashMap<>();
    /** The address spaces of device functions' array parameters, known once {@link #translate} has inferred them. */
    AddressSpaces spaces;
    private final List<KernelLanguageException> errors = new ArrayList<>();

    CTranslator(Trees trees, CompilationUnitTree cu, TypeElement owner, CDialect dialect) {
        this.trees = trees;
        this.cu = cu;
        this.owner = owner;
        this.d = dialect;
        this.annotations = SourceAnnotations.of(cu);
    }

    private boolean quiet;
    /** Kernels made by TornadoVM tasks: they may take Java arrays, and without a parallel loop run as one work-item. */
    Set<String> taskKernels = Set.of();

    CTranslator withTaskKernels(Set<String> names) {
        this.taskKernels = names;
        return this;
    }

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
            spaces = AddressSpaces.infer(trees, kernels, deviceFunctions);
            
        } catch (KernelLanguageException ex) {
            errors.add(ex);
            return "";
        }
        StringBuilder protos = new StringBuilder(), bodies = new StringBuilder();
        for (var e : deviceFunctions.entrySet()) {
            try {
                FunctionTranslator fn = new FunctionTranslator(this, e.getValue(), e.getKey(), false);
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
                bodies.append(new FunctionTranslator(this, trees.getTree(k), k, true).emit()).append('\n');
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

    /** Whether device function f writes its array parameter number index: set(), an atomic, or a callee that writes it. */
    boolean writes(ExecutableElement f, int index, Set<String> seen) {
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

    static TreePath pathOf(TreePath parent, Tree child) {
        // child may be nested inside parenthesis under parent; find it
        TreePath found = TreePath.getPath(parent, child);
        return found != null ? found : new TreePath(parent, child);
    }

    /** The dialect's form of the kernel's {@code @LaunchBounds} ("" without one); rejects bounds that are not positive. */
    String launchBounds(ExecutableElement el) {
        AnnotationMirror a = KernelTypes.annotation(el, ApiNames.LAUNCH_BOUNDS);
        if (a == null) return "";
        int max = 0, min = 1;
        for (var e : a.getElementValues().entrySet()) {
            int v = ((Number) e.getValue().getValue()).intValue();
            if (e.getKey().getSimpleName().contentEquals("maxGroupSize")) max = v;
            else min = v;
        }
        if (max <= 0 || min <= 0) {
            // point at the annotation's line
            Tree at = trees.getTree(el, a);
            if (at == null) at = trees.getTree(el);
            throw new KernelLanguageException(at, "@LaunchBounds needs a positive maxGroupSize and minGroupsPerUnit, got " + max + " and " + min);
        }
        return d.launchBounds(max, min);
    }
}
