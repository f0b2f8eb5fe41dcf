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
    private record Owner(String qualifiedName, String outermostName, Set<String> kernelNames, FileObject cl, FileObject cu) {
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of(ApiNames.KERNEL, ApiNames.DEVICE_FUNCTION);
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
        for (var e : kernels.entrySet()) {
            TypeElement type = e.getKey();
            List<ExecutableElement> ks = new ArrayList<>(e.getValue());
            ks.sort(Comparator.comparingInt(k -> type.getEnclosedElements().indexOf(k)));
            if (!checkOwner(type, ks)) continue;
            List<ExecutableElement> devFns = new ArrayList<>();
            Set<String> devNames = new HashSet<>();
            boolean devOk = true;
            for (Element m : type.getEnclosedElements()) {
                if (m instanceof ExecutableElement ex && KernelTypes.has(ex, ApiNames.DEVICE_FUNCTION)) {
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
                new JvmLauncherWriter(processingEnv, trees).write(type, binary, ks);
                FileObject cl = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", "META-INF/squall/kernels/" + binary + ".cl", type);
                FileObject cu = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", "META-INF/squall/kernels/" + binary + ".cu", type);
                Set<String> kernelNames = new HashSet<>();
                for (ExecutableElement k : ks) kernelNames.add(k.getSimpleName().toString());
                pending.put(binary, new Owner(type.getQualifiedName().toString(), outermost(type).getQualifiedName().toString(),
                        kernelNames, cl, cu));
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

    private static boolean paramTypeOk(TypeMirror t) {
        if (t.getKind() == TypeKind.ERROR) return true; // javac reports the unresolved type itself
        return (t.getKind().isPrimitive() && t.getKind() != TypeKind.CHAR) || KernelTypes.arrayElement(t) != null;
    }

    private void checkDeviceFunction(ExecutableElement m) {
        if (!m.getModifiers().contains(Modifier.STATIC)) error("a @DeviceFunction must be static", m);
        if (m.getModifiers().contains(Modifier.PRIVATE)) error("a @DeviceFunction must not be private: the generated launcher calls it", m);
        TypeMirror r = m.getReturnType();
        if (!(r.getKind() == TypeKind.VOID || (r.getKind().isPrimitive() && r.getKind() != TypeKind.CHAR))) {
            error("a @DeviceFunction returns a primitive or void, not " + r, m);
        }
        for (VariableElement p : m.getParameters()) {
            boolean javaArray = p.asType() instanceof javax.lang.model.type.ArrayType at && at.getComponentType().getKind().isPrimitive()
                    && at.getComponentType().getKind() != TypeKind.CHAR;
            if (!KernelTypes.isContext(p.asType()) && !paramTypeOk(p.asType()) && !javaArray) {
                error("device function parameter " + p.getSimpleName() + " has type " + p.asType() + "; device functions take primitives, "
                        + "KernelContext, Squall arrays and private or local arrays of primitives (double[] ...)", p);
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
            if (KernelTypes.has(m, ApiNames.KERNEL) && kernelNames.contains(m.getSimpleName().toString())) kernels.add(m);
            if (KernelTypes.has(m, ApiNames.DEVICE_FUNCTION)) devFns.add(m);
        }
        CTranslator ocl = new CTranslator(trees, cu, type, new OpenClDialect());
        String cl = ocl.translate(kernels, devFns);
        if (!ocl.errors().isEmpty() || ocl.failedQuietly()) {
            for (KernelLanguageException ex : ocl.errors()) trees.printMessage(Diagnostic.Kind.ERROR, ex.getMessage(), ex.tree, cu);
            return;
        }
        CTranslator cuda = new CTranslator(trees, cu, type, new CudaDialect());
        String cuSrc = cuda.translate(kernels, devFns);
        if (!cuda.errors().isEmpty()) {
            for (KernelLanguageException ex : cuda.errors()) trees.printMessage(Diagnostic.Kind.ERROR, ex.getMessage(), ex.tree, cu);
            return;
        }
        write(o.cl, cl);
        write(o.cu, cuSrc);
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
