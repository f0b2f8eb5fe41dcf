package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.*;
import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.ReadOnly;

import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.*;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.*;

/**
 * Squall's kernel compiler, run by javac as an annotation processor. For every class declaring
 * {@code @Kernel} methods it writes, following LANGUAGE.md:
 * <ul>
 *   <li>{@code <Owner>_SquallKernels} (Java, during the processing rounds): kernel metadata and
 *       the JVM launcher of loop-parallel kernels;</li>
 *   <li>{@code META-INF/squall/kernels/<owner>.cl} and {@code .cu}: OpenCL C and CUDA C, written
 *       once javac has attributed the class (types are needed), from a {@link TaskListener};</li>
 *   <li>{@code META-INF/squall/kernels.idx}: the owners compiled in this module.</li>
 * </ul>
 * Code outside the kernel language is reported as a javac error at the offending tree.
 *
 * <p>Maven: put {@code squall-compiler} on the compile class path ({@code provided}) with
 * {@code <proc>full</proc>}; javac finds this processor through {@code META-INF/services}.
 */
public final class KernelProcessor extends AbstractProcessor {
    private Trees trees;
    private boolean listening;
    /** Owners waiting for javac's analysis, by binary name. */
    private final Map<String, Owner> pending = new LinkedHashMap<>();
    private final Set<String> allOwners = new TreeSet<>();

    /** An owner waiting for javac's analysis; by name, since the round's elements are stale by then. */
    private record Owner(String qualifiedName, String outermostName, Set<String> kernelNames, FileObject cl, FileObject cu,
                         Map<String, String> why) {
    }

    /** Why methods without annotations are kernels or device functions (TornadoVM tasks), by owner and method name. */
    private final Map<String, Map<String, String>> taskReasons = new HashMap<>();
    /** Kernels made by TornadoVM tasks, as "owner#method". */
    private final Set<String> taskKernelNames = new HashSet<>();
    /** TornadoVM task kernels rewritten into the kernel language (@Reduce, matrix parameters). */
    private TornadoRewrites rewrites;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        // every round: TornadoVM programs make kernels by TaskGraph.task calls, without annotations
        return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        try {
            trees = Trees.instance(env);
            JavacTask.instance(env).addTaskListener(new TaskListener() {
                @Override
                public void finished(TaskEvent e) {
                    if (e.getKind() == TaskEvent.Kind.ANALYZE && e.getTypeElement() != null) analyzed(e);
                }
            });
            listening = true;
            rewrites = new TornadoRewrites(env, trees);
            KernelTypes.TASK_DEVICE_FUNCTIONS.clear();
        } catch (IllegalArgumentException | IllegalStateException e) {
            env.getMessager().printMessage(Diagnostic.Kind.ERROR, "squall-compiler needs javac (the JDK compiler) to translate kernels: " + e.getMessage());
        }
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        if (!listening) return false;
        TypeElement kernelAnn = processingEnv.getElementUtils().getTypeElement(ApiNames.KERNEL);
        TypeElement devAnn = processingEnv.getElementUtils().getTypeElement(ApiNames.DEVICE_FUNCTION);
        Map<TypeElement, List<ExecutableElement>> kernels = new LinkedHashMap<>();
        if (kernelAnn != null) {
            for (Element e : round.getElementsAnnotatedWith(kernelAnn)) {
                if (e instanceof ExecutableElement m && m.getEnclosingElement() instanceof TypeElement t) {
                    kernels.computeIfAbsent(t, k -> new ArrayList<>()).add(m);
                }
            }
        }
        if (devAnn != null) {
            for (Element e : round.getElementsAnnotatedWith(devAnn)) {
                if (e instanceof ExecutableElement m) checkDeviceFunction(m);
            }
        }
        TaskKernels tasks = new TaskKernels(trees, processingEnv.getElementUtils());
        tasks.scan(round.getRootElements());
        rewrites.addGenerated(tasks, round.getRootElements());
        for (var e : tasks.kernels.entrySet()) {
            TypeElement type = e.getKey();
            String owner = type.getQualifiedName().toString();
            Map<String, String> why = taskReasons.computeIfAbsent(owner, k -> new HashMap<>());
            List<ExecutableElement> list = kernels.computeIfAbsent(type, k -> new ArrayList<>());
            List<ExecutableElement> rewritten = new ArrayList<>();
            for (var k : e.getValue().entrySet()) {
                String name = k.getKey().getSimpleName().toString();
                if (!taskKernelNames.add(owner + "#" + name)) continue;
                why.put(name, k.getValue().describe(name));
                if (TornadoRewrites.needed(k.getKey())) rewritten.add(k.getKey());
                else list.add(k.getKey());
            }
            if (!rewritten.isEmpty()) {
                for (ExecutableElement k : rewritten) taskKernelNames.remove(owner + "#" + k.getSimpleName());
                rewrites.write(type, rewritten, why);
            }
            if (list.isEmpty()) kernels.remove(type);
            for (var f : tasks.deviceFunctions(type, e.getValue().keySet()).entrySet()) {
                String name = f.getKey().getSimpleName().toString();
                if (KernelTypes.isDeviceFunction(f.getKey())) continue;
                KernelTypes.TASK_DEVICE_FUNCTIONS.add(owner + "#" + name);
                why.put(name, name + " is a device function because task kernel " + f.getValue() + " calls it"
                        + (why.containsKey(f.getValue()) ? " (" + why.get(f.getValue()) + ")" : ""));
                checkDeviceFunction(f.getKey(), why.get(name));
            }
        }
        for (var e : kernels.entrySet()) {
            TypeElement type = e.getKey();
            List<ExecutableElement> ks = new ArrayList<>(e.getValue());
            ks.sort(Comparator.comparingInt(k -> type.getEnclosedElements().indexOf(k)));
            if (!checkOwner(type, ks)) continue;
            List<ExecutableElement> devFns = new ArrayList<>();
            Set<String> devNames = new HashSet<>();
            boolean devOk = true;
            for (Element m : type.getEnclosedElements()) {
                if (m instanceof ExecutableElement ex && KernelTypes.isDeviceFunction(ex)) {
                    devFns.add(ex);
                    if (!devNames.add(ex.getSimpleName().toString())) {
                        error("device function " + ex.getSimpleName() + " is declared twice: C has no overloading, so device function "
                                + "names are unique within a class", ex);
                        devOk = false;
                    }
                }
            }
            if (!devOk) continue;
            String binary = processingEnv.getElementUtils().getBinaryName(type).toString();
            try {
                writeTwin(type, ks);
                Map<String, String> why = taskReasons.getOrDefault(type.getQualifiedName().toString(), Map.of());
                new JvmLauncherWriter(processingEnv, trees).withTaskKernels(taskKernels(type)).write(type, binary, ks);
                FileObject cl = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", "META-INF/squall/kernels/" + binary + ".cl", type);
                FileObject cu = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", "META-INF/squall/kernels/" + binary + ".cu", type);
                Set<String> kernelNames = new HashSet<>();
                for (ExecutableElement k : ks) kernelNames.add(k.getSimpleName().toString());
                pending.put(binary, new Owner(type.getQualifiedName().toString(), outermost(type).getQualifiedName().toString(),
                        kernelNames, cl, cu, why));
                allOwners.add(binary);
            } catch (IOException ex) {
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "squall-compiler: cannot write the generated files of " + binary + ": " + ex, type);
            }
        }
        if (round.processingOver() && !allOwners.isEmpty()) {
            try (Writer w = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", "META-INF/squall/kernels.idx").openWriter()) {
                for (String o : allOwners) w.write(o + "\n");
            } catch (IOException ex) {
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "squall-compiler: cannot write META-INF/squall/kernels.idx: " + ex);
            }
        }
        return false;
    }

    // ---- element checks (no types of expressions needed) ----

    private void error(String msg, Element e) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, msg, e);
    }

    /** The names of {@code type}'s kernels made by TornadoVM tasks. */
    private Set<String> taskKernels(TypeElement type) {
        Set<String> out = new HashSet<>();
        String prefix = type.getQualifiedName() + "#";
        for (String k : taskKernelNames) if (k.startsWith(prefix)) out.add(k.substring(prefix.length()));
        return out;
    }

    /** " (m is a kernel because task ... runs it)" for a task kernel, "" for an annotated one. */
    private String reason(TypeElement type, String method) {
        String why = taskReasons.getOrDefault(type.getQualifiedName().toString(), Map.of()).get(method);
        return why == null ? "" : " (" + why + ")";
    }

    private boolean checkOwner(TypeElement type, List<ExecutableElement> ks) {
        boolean ok = true;
        if (type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
            error("kernels are declared in top-level or member classes, not in local or anonymous classes", type);
            return false;
        }
        for (Element t = type; t instanceof TypeElement te; t = te.getEnclosingElement()) {
            if (te.getModifiers().contains(Modifier.PRIVATE)) {
                error("class " + te.getSimpleName() + " holds kernels and must not be private: the generated launcher in the same package calls them", type);
                return false;
            }
        }
        Set<String> names = new HashSet<>();
        for (ExecutableElement k : ks) {
            String n = k.getSimpleName().toString();
            boolean task = taskKernelNames.contains(type.getQualifiedName() + "#" + n);
            String why = reason(type, n);
            if (task) {
                ok &= checkTaskKernel(k, why);
                continue;
            }
            if (!names.add(n)) {
                error("kernel " + n + " is declared twice: kernel names are unique within a class (no overloads), since devices find them by name", k);
                ok = false;
            }
            if (CTranslator.reservedInC(n)) {
                error("kernel name " + n + " means something in OpenCL C or CUDA C (a keyword, built-in or macro), and devices find kernels "
                        + "by name; rename the method", k);
                ok = false;
            }
            if (!k.getModifiers().contains(Modifier.STATIC)) {
                error("a @Kernel method must be static: kernels have no object to run on", k);
                ok = false;
            }
            if (k.getModifiers().contains(Modifier.PRIVATE)) {
                error("a @Kernel method must not be private: the generated launcher calls it", k);
                ok = false;
            }
            if (k.getReturnType().getKind() != TypeKind.VOID) {
                error("a @Kernel method returns void: write results into an array parameter", k);
                ok = false;
            }
            if (!k.getTypeParameters().isEmpty()) {
                error("a @Kernel method cannot be generic: write one kernel per element type", k);
                ok = false;
            }
            if (KernelTypes.has(k, ApiNames.DEVICE_FUNCTION)) {
                error("a method is either a @Kernel or a @DeviceFunction, not both", k);
                ok = false;
            }
            List<? extends VariableElement> ps = k.getParameters();
            for (int i = 0; i < ps.size(); i++) {
                VariableElement p = ps.get(i);
                TypeMirror t = p.asType();
                if (KernelTypes.isContext(t)) {
                    if (i != 0) {
                        error("KernelContext must be the first parameter of an SPMD kernel", p);
                        ok = false;
                    }
                } else if (!paramTypeOk(t)) {
                    error("kernel parameter " + p.getSimpleName() + " has type " + t + "; kernels take primitives (not char), KernelContext and "
                            + "Squall arrays (IntArray, LongArray, FloatArray, DoubleArray, ShortArray, ByteArray)"
                            + (t.getKind() == TypeKind.ARRAY ? ": wrap Java arrays with DoubleArray.fromArray(...) etc." : ""), p);
                    ok = false;
                }
            }
        }
        return ok;
    }

    /** The element rules for a kernel made by a TornadoVM task: a static void method taking primitives, arrays and a KernelContext anywhere. */
    private boolean checkTaskKernel(ExecutableElement k, String why) {
        boolean ok = true;
        String n = k.getSimpleName().toString();
        if (CTranslator.reservedInC(n)) {
            error("kernel name " + n + " means something in OpenCL C or CUDA C (a keyword, built-in or macro), and devices find kernels by name; "
                    + "rename the method" + why, k);
            ok = false;
        }
        if (!k.getModifiers().contains(Modifier.STATIC)) {
            error("a task's kernel must be a static method: kernels have no object to run on" + why, k);
            ok = false;
        }
        if (k.getModifiers().contains(Modifier.PRIVATE)) {
            error("a task's kernel must not be private: the generated launcher calls it" + why, k);
            ok = false;
        }
        if (k.getReturnType().getKind() != TypeKind.VOID) {
            error("a task's kernel returns void: write results into an array parameter" + why, k);
            ok = false;
        }
        if (!k.getTypeParameters().isEmpty()) {
            error("a task's kernel cannot be generic: write one kernel per element type" + why, k);
            ok = false;
        }
        int contexts = 0;
        for (VariableElement p : k.getParameters()) {
            TypeMirror t = p.asType();
            if (KernelTypes.isContext(t)) {
                if (++contexts > 1) {
                    error("a kernel takes at most one KernelContext" + why, p);
                    ok = false;
                }
            } else if (!paramTypeOk(t) && !KernelTypes.isPrimitiveJavaArray(t)) {
                error("kernel parameter " + p.getSimpleName() + " has type " + t + "; kernels take primitives (not char), a KernelContext, "
                        + "arrays of primitives (float[], double[], int[], long[], ...) and the off-heap arrays (FloatArray, ...)" + why, p);
                ok = false;
            }
        }
        return ok;
    }

    private static boolean paramTypeOk(TypeMirror t) {
        if (t.getKind() == TypeKind.ERROR) return true; // javac reports the unresolved type itself
        return (t.getKind().isPrimitive() && t.getKind() != TypeKind.CHAR) || KernelTypes.arrayElement(t) != null;
    }

    private void checkDeviceFunction(ExecutableElement m) {
        checkDeviceFunction(m, null);
    }

    /** Checks a device function; {@code why} says why an unannotated method is one (null for {@code @DeviceFunction}). */
    private void checkDeviceFunction(ExecutableElement m, String why) {
        String what = why == null ? "a @DeviceFunction" : "a method called by a kernel";
        String suffix = why == null ? "" : " (" + why + ")";
        if (!m.getModifiers().contains(Modifier.STATIC)) error(what + " must be static" + suffix, m);
        if (m.getModifiers().contains(Modifier.PRIVATE)) error(what + " must not be private: the generated launcher calls it" + suffix, m);
        TypeMirror r = m.getReturnType();
        if (!(r.getKind() == TypeKind.VOID || (r.getKind().isPrimitive() && r.getKind() != TypeKind.CHAR))) {
            error(what + " returns a primitive or void, not " + r + suffix, m);
        }
        for (VariableElement p : m.getParameters()) {
            boolean javaArray = p.asType() instanceof javax.lang.model.type.ArrayType at && at.getComponentType().getKind().isPrimitive()
                    && at.getComponentType().getKind() != TypeKind.CHAR;
            if (!KernelTypes.isContext(p.asType()) && !paramTypeOk(p.asType()) && !javaArray) {
                error("device function parameter " + p.getSimpleName() + " has type " + p.asType() + "; device functions take primitives, "
                        + "KernelContext, Squall arrays and private or local arrays of primitives (double[] ...)" + suffix, p);
            }
        }
    }

    // ---- C translation, once the owner's class is attributed ----

    private final Set<CompilationUnitTree> scanned = Collections.newSetFromMap(new IdentityHashMap<>());

    private void analyzed(TaskEvent e) {
        if (e.getCompilationUnit() != null && scanned.add(e.getCompilationUnit())) rejectKernelsInLocalClasses(e.getCompilationUnit());
        String top = outermost(e.getTypeElement()).getQualifiedName().toString();
        for (Iterator<Owner> it = pending.values().iterator(); it.hasNext(); ) {
            Owner o = it.next();
            if (!o.outermostName.equals(top)) continue;
            it.remove();
            translate(o, e.getCompilationUnit());
        }
    }

    /** javac gives processors no elements of local and anonymous classes; find their kernels in the tree. */
    private void rejectKernelsInLocalClasses(CompilationUnitTree cu) {
        SourceAnnotations annotations = SourceAnnotations.of(cu);
        new TreePathScanner<Void, Boolean>() {
            @Override
            public Void visitClass(ClassTree c, Boolean local) {
                return super.visitClass(c, local || !(getCurrentPath().getParentPath().getLeaf() instanceof ClassTree
                        || getCurrentPath().getParentPath().getLeaf() instanceof CompilationUnitTree));
            }

            @Override
            public Void visitNewClass(NewClassTree n, Boolean local) {
                return super.visitNewClass(n, true);
            }

            @Override
            public Void visitMethod(MethodTree m, Boolean local) {
                if (local && annotations.find(m.getModifiers(), ApiNames.KERNEL) != null) {
                    trees.printMessage(Diagnostic.Kind.ERROR, "kernels are declared in top-level or member classes, not in local or "
                            + "anonymous classes: move " + m.getName() + " to a static member class", m, cu);
                }
                return super.visitMethod(m, local);
            }
        }.scan(cu, false);
    }

    private static TypeElement outermost(TypeElement t) {
        while (t.getEnclosingElement() instanceof TypeElement outer) t = outer;
        return t;
    }

    private void translate(Owner o, CompilationUnitTree cu) {
        // symbols from the processing rounds are stale once javac analyses: look the class up again
        TypeElement type = processingEnv.getElementUtils().getTypeElement(o.qualifiedName);
        if (type == null) return;
        List<ExecutableElement> kernels = new ArrayList<>(), devFns = new ArrayList<>();
        Set<String> kernelNames = o.kernelNames;
        for (Element e : type.getEnclosedElements()) {
            if (!(e instanceof ExecutableElement m)) continue;
            String name = m.getSimpleName().toString();
            if (kernelNames.contains(name) && (KernelTypes.has(m, ApiNames.KERNEL) || taskKernelNames.contains(o.qualifiedName + "#" + name))) kernels.add(m);
            if (KernelTypes.isDeviceFunction(m)) devFns.add(m);
        }
        Set<String> tasks = taskKernels(type);
        CTranslator ocl = new CTranslator(trees, cu, type, new OpenClDialect()).withTaskKernels(tasks);
        String cl = ocl.translate(kernels, devFns);
        if (!ocl.errors().isEmpty() || ocl.failedQuietly()) {
            for (KernelLanguageException ex : ocl.errors()) report(ex, o, cu);
            return;
        }
        CTranslator cuda = new CTranslator(trees, cu, type, new CudaDialect()).withTaskKernels(tasks);
        String cuSrc = cuda.translate(kernels, devFns);
        if (!cuda.errors().isEmpty()) {
            for (KernelLanguageException ex : cuda.errors()) report(ex, o, cu);
            return;
        }
        write(o.cl, cl);
        write(o.cu, cuSrc);
    }

    /** Reports a translation error at its tree, saying which task made its method a kernel when no annotation did. */
    private void report(KernelLanguageException ex, Owner o, CompilationUnitTree cu) {
        String msg = ex.getMessage();
        if (!o.why.isEmpty()) {
            TreePath p = TreePath.getPath(cu, ex.tree);
            for (; p != null; p = p.getParentPath()) {
                if (p.getLeaf() instanceof MethodTree m) {
                    String why = o.why.get(m.getName().toString());
                    if (why != null) msg += " (" + why + ")";
                    break;
                }
            }
        }
        trees.printMessage(Diagnostic.Kind.ERROR, msg, ex.tree, cu);
    }

    private static void write(FileObject f, String text) {
        try (Writer w = f.openWriter()) {
            w.write(text);
        } catch (IOException ex) {
            throw new UncheckedIOException("squall-compiler: cannot write " + f.toUri(), ex);
        }
    }

    // ---- the fp32 twin ----

    /** The @Fp32Variant twin and the typed handles on both, if asked for: generated source, compiled and translated in the next round. */
    private void writeTwin(TypeElement type, List<ExecutableElement> kernels) throws IOException {
        String twin = null, handles = "";
        AnnotationMirror variant = KernelTypes.annotation(type, ApiNames.FP32_VARIANT);
        if (variant != null) {
            for (var v : variant.getElementValues().entrySet()) {
                String key = v.getKey().getSimpleName().toString();
                if (key.equals("value")) twin = String.valueOf(v.getValue().getValue());
                else if (key.equals("handles")) handles = String.valueOf(v.getValue().getValue());
            }
        }
        if (twin == null) return;
        if (!SourceVersion.isIdentifier(twin) || twin.equals(type.getSimpleName().toString())) {
            error("@Fp32Variant needs the simple name of a new class, got \"" + twin + "\"", type);
            return;
        }
        if (handles.isEmpty()) handles = type.getSimpleName() + "Variants";
        if (!SourceVersion.isIdentifier(handles) || handles.equals(twin) || handles.equals(type.getSimpleName().toString())) {
            error("@Fp32Variant(handles = ...) needs the simple name of a new class, other than the twin's, got \"" + handles + "\"", type);
            return;
        }
        String pkg = processingEnv.getElementUtils().getPackageOf(type).getQualifiedName().toString();
        String src;
        try {
            src = Fp32TwinWriter.source(type, pkg, twin, trees);
        } catch (JavaBodyPrinter.Unsupported e) {
            return; // outside the kernel language: the typed pass reports it on the fp64 source
        }
        try (Writer w = processingEnv.getFiler().createSourceFile((pkg.isEmpty() ? "" : pkg + ".") + twin, type).openWriter()) {
            w.write(src);
        }
        if (processingEnv.getElementUtils().getTypeElement("dev.squall.tasks.runtime.KernelVariants") == null) return; // api-only build
        try (Writer w = processingEnv.getFiler().createSourceFile((pkg.isEmpty() ? "" : pkg + ".") + handles, type).openWriter()) {
            w.write(VariantHandlesWriter.source(type, kernels, pkg, twin, handles));
        }
    }
}
