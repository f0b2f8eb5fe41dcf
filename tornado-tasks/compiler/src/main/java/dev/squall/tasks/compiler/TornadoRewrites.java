package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.*;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;
import java.io.IOException;
import java.io.Writer;
import java.util.*;
import java.util.function.Supplier;

/**
 * TornadoVM task kernels that are not in the kernel language as written, rewritten into kernels that are: a kernel with a
 * {@code @Reduce} parameter, and a kernel taking TornadoVM matrices ({@code Matrix2DFloat}, {@code Matrix2DDouble},
 * {@code Matrix2DInt}) or vectors ({@code VectorFloat4}).
 * For an owner class {@code p.Outer$Inner} it writes {@code p.Outer_Inner_SquallTornado} (generated Java, compiled and
 * translated in the next round like any task kernel) holding, per rewritten kernel {@code k}:
 * <ul>
 *   <li>a matrix parameter {@code m} becomes its elements ({@code FloatArray m}, row-major) and two scalars
 *       {@code m_squallRows, m_squallColumns}; {@code m.get(i, j)}, {@code m.set(i, j, v)}, {@code m.getNumRows()} and
 *       {@code m.getNumColumns()} become element accesses and those scalars;</li>
 *   <li>a {@code VectorFloat4} parameter {@code v} becomes its floats and {@code v_squallLength}; {@code Float4} values
 *       become four floats ({@link Kernel#editVectors});</li>
 *   <li>the owner's static methods that these kernels call are copied beside them (a kernel's device functions live in
 *       its own class);</li>
 *   <li>a {@code @Reduce} kernel, {@code for (@Parallel int i = S; i < N; i++) { ...; r[0] OP= e; }} with OP one of
 *       {@code + * max min} (TornadoVM's documented forms: {@code r[0] += e}, {@code r[0] = r[0] * e},
 *       {@code r.set(0, r.get(0) + e)}, {@code r[0] = Math.max(r[0], e)}, ...), becomes two SPMD kernels:
 *       {@code k_squallPartials} (each work-item folds e over a grid-stride share of the loop, each work-group folds its
 *       work-items' values in local memory into one partial) and {@code k_squallCombine} (one work-group folds the
 *       partials; its first work-item runs the statements before the loop and then the user's own update with e
 *       replaced by the total). So after the task {@code r[0]} is the value sequential Java would leave, up to the
 *       order of the floating-point operations;</li>
 *   <li>a host method {@code k(TaskGraph g, String id, Object[] args, Function device)} that adds the task(s) to a
 *       Squall graph with the arguments expanded; the compatibility layer calls it instead of adding {@code k}.</li>
 * </ul>
 * Errors are reported at the user's source: the shapes above are the whole of what is accepted.
 */
final class TornadoRewrites {
    static final String SUFFIX = "_SquallTornado";
    /** Work-items per work-group of both reduction stages; the local-memory fold is unrolled for it. */
    static final int GROUP = 256;
    /** At most this many work-groups in the first stage (each work-item loops over a grid-stride share). */
    static final int MAX_GROUPS = 1024;

    static final String MATRIX_FLOAT = "uk.ac.manchester.tornado.api.types.matrix.Matrix2DFloat";
    static final String MATRIX_DOUBLE = "uk.ac.manchester.tornado.api.types.matrix.Matrix2DDouble";
    static final String MATRIX_INT = "uk.ac.manchester.tornado.api.types.matrix.Matrix2DInt";

    private final ProcessingEnvironment env;
    private final Trees trees;
    /** Generated classes waiting for their round: qualified name to kernel name to why it is a kernel. */
    private final Map<String, Map<String, String>> generated = new HashMap<>();

    TornadoRewrites(ProcessingEnvironment env, Trees trees) {
        this.env = env;
        this.trees = trees;
    }

    /** Whether task kernel {@code k} is rewritten: it has a {@code @Reduce} or a matrix parameter. */
    static boolean needed(ExecutableElement k) {
        for (VariableElement p : k.getParameters()) {
            if (KernelTypes.has(p, TornadoNames.REDUCE) || matrixElement(p.asType()) != null || isVectorFloat4(p.asType())) return true;
        }
        return false;
    }

    static final String VECTOR_FLOAT4 = "uk.ac.manchester.tornado.api.types.collections.VectorFloat4";
    static final String FLOAT4 = "uk.ac.manchester.tornado.api.types.vectors.Float4";

    static boolean isVectorFloat4(TypeMirror t) {
        return t instanceof DeclaredType dt && ((TypeElement) dt.asElement()).getQualifiedName().contentEquals(VECTOR_FLOAT4);
    }

    /** The element type of a TornadoVM matrix type, or null. */
    static String matrixElement(TypeMirror t) {
        if (!(t instanceof DeclaredType dt)) return null;
        return switch (((TypeElement) dt.asElement()).getQualifiedName().toString()) {
            case MATRIX_FLOAT -> "float";
            case MATRIX_DOUBLE -> "double";
            case MATRIX_INT -> "int";
            default -> null;
        };
    }

    /** Adds the kernels of this round's generated classes to {@code tasks}, each with why it is one. */
    void addGenerated(TaskKernels tasks, Collection<? extends Element> roots) {
        for (Element e : roots) {
            if (!(e instanceof TypeElement t)) continue;
            Map<String, String> ks = generated.remove(t.getQualifiedName().toString());
            if (ks == null) continue;
            for (Element m : t.getEnclosedElements()) {
                if (m instanceof ExecutableElement ex && ks.containsKey(ex.getSimpleName().toString())) {
                    tasks.kernels.computeIfAbsent(t, x -> new LinkedHashMap<>()).put(ex, new TaskKernels.Task(ks.get(ex.getSimpleName().toString()), null));
                }
            }
        }
    }

    /** Writes the rewritten class of {@code owner} for {@code kernels}; errors go to the user's trees. */
    void write(TypeElement owner, List<ExecutableElement> kernels, Map<String, String> why) {
        StringBuilder body = new StringBuilder();
        Map<String, String> names = new LinkedHashMap<>();
        String binary = env.getElementUtils().getBinaryName(owner).toString();
        String pkg = env.getElementUtils().getPackageOf(owner).getQualifiedName().toString();
        String simple = binary.substring(pkg.isEmpty() ? 0 : pkg.length() + 1).replace('$', '_') + SUFFIX;
        CompilationUnitTree cu = null;
        for (ExecutableElement k : kernels) {
            TreePath path = trees.getPath(k);
            if (path == null) continue;
            cu = path.getCompilationUnit();
            try {
                new Kernel(k, (MethodTree) path.getLeaf(), cu, simple, why.getOrDefault(k.getSimpleName().toString(), "")).write(body, names);
            } catch (KernelLanguageException ex) {
                trees.printMessage(Diagnostic.Kind.ERROR, ex.getMessage() + reason(why, k), ex.tree, cu);
            } catch (IOException ex) {
                trees.printMessage(Diagnostic.Kind.ERROR, "squall-compiler: cannot read the source of " + k.getSimpleName() + ": " + ex, path.getLeaf(), cu);
            }
        }
        if (names.isEmpty() || cu == null) return;
        copyHelpers(owner, kernels, body);
        StringBuilder src = new StringBuilder();
        if (!pkg.isEmpty()) src.append("package ").append(pkg).append(";\n\n");
        for (ImportTree i : cu.getImports()) src.append(i.toString().trim()).append('\n');
        // the owner's constants and types, as the kernels name them (no static import from the unnamed package)
        if (!pkg.isEmpty()) src.append("import static ").append(owner.getQualifiedName()).append(".*;\n");
        src.append('\n');
        src.append("/** Generated by squall-compiler from the TornadoVM task kernels of ").append(owner.getQualifiedName())
                .append(" that are rewritten (@Reduce, matrix and vector parameters): see TornadoRewrites. */\n");
        src.append("@SuppressWarnings({\"unchecked\", \"rawtypes\"})\npublic final class ").append(simple).append(" {\n")
                .append("    private ").append(simple).append("() {\n    }\n").append(body).append("}\n");
        String qualified = (pkg.isEmpty() ? "" : pkg + ".") + simple;
        try (Writer w = env.getFiler().createSourceFile(qualified, owner).openWriter()) {
            w.write(src.toString());
        } catch (IOException ex) {
            env.getMessager().printMessage(Diagnostic.Kind.ERROR, "squall-compiler: cannot write " + qualified + ": " + ex, owner);
            return;
        }
        generated.put(qualified, names);
    }

    /**
     * Copies into the generated class the static methods of {@code owner} that the rewritten kernels call, directly or
     * through each other, unqualified or as {@code Owner.f(...)}: the generated kernels call them unqualified, and a
     * kernel's device functions live in its own class.
     */
    private void copyHelpers(TypeElement owner, List<ExecutableElement> kernels, StringBuilder out) {
        Map<String, ExecutableElement> byName = new HashMap<>();
        for (Element e : owner.getEnclosedElements()) {
            if (e instanceof ExecutableElement m && m.getKind() == ElementKind.METHOD && m.getModifiers().contains(Modifier.STATIC)
                    && !kernels.contains(m)) {
                byName.putIfAbsent(m.getSimpleName().toString(), m);
            }
        }
        Set<ExecutableElement> copied = new LinkedHashSet<>();
        Deque<ExecutableElement> todo = new ArrayDeque<>(kernels);
        while (!todo.isEmpty()) {
            MethodTree t = trees.getTree(todo.pop());
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
                    if (callee != null && copied.add(callee)) todo.add(callee);
                    return super.visitMethodInvocation(mi, v);
                }
            }.scan(t.getBody(), null);
        }
        for (ExecutableElement m : copied) {
            TreePath path = trees.getPath(m);
            if (path == null) continue;
            CompilationUnitTree cu = path.getCompilationUnit();
            SourcePositions pos = trees.getSourcePositions();
            try {
                CharSequence src = cu.getSourceFile().getCharContent(true);
                String text = src.subSequence((int) pos.getStartPosition(cu, path.getLeaf()), (int) pos.getEndPosition(cu, path.getLeaf())).toString();
                out.append("\n    /** Copied from ").append(owner.getSimpleName()).append('.').append(m.getSimpleName())
                        .append(": a rewritten kernel calls it. */\n    ").append(text.replaceAll("\\b" + java.util.regex.Pattern.quote(owner.getSimpleName().toString()) + "\\.", ""))
                        .append('\n');
            } catch (IOException ex) {
                trees.printMessage(Diagnostic.Kind.ERROR, "squall-compiler: cannot read the source of " + m.getSimpleName() + ": " + ex, path.getLeaf(), cu);
            }
        }
    }

    private static String reason(Map<String, String> why, ExecutableElement k) {
        String w = why.get(k.getSimpleName().toString());
        return w == null ? "" : " (" + w + ")";
    }

    /** The operator of a reduction. */
    private enum Op {
        SUM, PRODUCT, MAX, MIN;

        String identity(String type) {
            return switch (this) {
                case SUM -> "0";
                case PRODUCT -> "1";
                case MAX -> switch (type) {
                    case "float" -> "Float.NEGATIVE_INFINITY";
                    case "double" -> "Double.NEGATIVE_INFINITY";
                    case "int" -> "Integer.MIN_VALUE";
                    default -> "Long.MIN_VALUE";
                };
                case MIN -> switch (type) {
                    case "float" -> "Float.POSITIVE_INFINITY";
                    case "double" -> "Double.POSITIVE_INFINITY";
                    case "int" -> "Integer.MAX_VALUE";
                    default -> "Long.MAX_VALUE";
                };
            };
        }

        /** {@code acc = acc OP (e);} as a statement. */
        String fold(String acc, String e) {
            return switch (this) {
                case SUM -> acc + " += " + e + ";";
                case PRODUCT -> acc + " *= " + e + ";";
                case MAX -> acc + " = Math.max(" + acc + ", " + e + ");";
                case MIN -> acc + " = Math.min(" + acc + ", " + e + ");";
            };
        }
    }

    /** One kernel being rewritten: its source text with edits at trees. */
    private final class Kernel {
        private final ExecutableElement k;
        private final MethodTree tree;
        private final CompilationUnitTree cu;
        private final String genClass;
        private final String why;
        private final CharSequence src;
        private final SourcePositions pos;
        /** Replacements of trees, applied by {@link #text}; nested edits are applied by their parent's replacement. */
        private final Map<Tree, Supplier<String>> edits = new IdentityHashMap<>();
        private final Map<String, String> matrices = new LinkedHashMap<>();
        /** VectorFloat4 parameters, and the kernel's Float4 locals (each becomes four floats). */
        private final Set<String> vectors = new LinkedHashSet<>(), float4Locals = new HashSet<>();
        private VariableElement reduce;
        private String reduceType;

        Kernel(ExecutableElement k, MethodTree tree, CompilationUnitTree cu, String genClass, String why) throws IOException {
            this.k = k;
            this.tree = tree;
            this.cu = cu;
            this.genClass = genClass;
            this.why = why;
            this.src = cu.getSourceFile().getCharContent(true);
            this.pos = trees.getSourcePositions();
        }

        private long start(Tree t) {
            return pos.getStartPosition(cu, t);
        }

        private long end(Tree t) {
            return pos.getEndPosition(cu, t);
        }

        String text(Tree t) {
            return text(start(t), end(t));
        }

        /** The source between two positions with the edits inside applied. */
        String text(long from, long to) {
            List<Tree> inside = new ArrayList<>();
            for (Tree t : edits.keySet()) if (start(t) >= from && end(t) <= to) inside.add(t);
            inside.sort(Comparator.comparingLong(this::start).thenComparing(Comparator.comparingLong(this::end).reversed())); // outer first
            StringBuilder b = new StringBuilder();
            long at = from;
            for (Tree t : inside) {
                if (start(t) < at) continue; // nested in an edit already applied
                b.append(src, (int) at, (int) start(t)).append(edits.get(t).get());
                at = end(t);
            }
            return b.append(src, (int) at, (int) to).toString();
        }

        void write(StringBuilder out, Map<String, String> names) {
            String name = k.getSimpleName().toString();
            for (VariableElement p : k.getParameters()) {
                if (KernelTypes.has(p, TornadoNames.REDUCE)) {
                    if (reduce != null) throw new KernelLanguageException(trees.getTree(p), "a kernel has at most one @Reduce parameter");
                    reduce = p;
                    reduceType = KernelTypes.isPrimitiveJavaArray(p.asType())
                            ? ((javax.lang.model.type.ArrayType) p.asType()).getComponentType().toString()
                            : KernelTypes.arrayElement(p.asType());
                    if (reduceType == null || !Set.of("float", "double", "int", "long").contains(reduceType)) {
                        throw new KernelLanguageException(trees.getTree(p), "a @Reduce parameter is an array of float, double, int or long "
                                + "(float[], FloatArray, ...), not " + p.asType());
                    }
                }
                String m = matrixElement(p.asType());
                if (m != null) matrices.put(p.getSimpleName().toString(), m);
                if (isVectorFloat4(p.asType())) vectors.add(p.getSimpleName().toString());
            }
            editMatrices();
            editVectors();
            editOwnerCalls();
            if (reduce == null) {
                String flat = name + "_squallFlat";
                out.append("\n    public static void ").append(flat).append("(").append(params("")).append(") ")
                        .append(text(tree.getBody())).append('\n');
                names.put(flat, name + "'s rewrite (matrices and vectors as arrays and sizes): " + why);
                host(out, flat, null);
            } else {
                reduction(out, names);
            }
        }

        /** {@code Owner.f(...)} becomes {@code f(...)}: the generated class holds a copy of f ({@link #copyHelpers}). */
        private void editOwnerCalls() {
            String ownerName = k.getEnclosingElement().getSimpleName().toString();
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                    if (mi.getMethodSelect() instanceof MemberSelectTree ms && ms.getExpression() instanceof IdentifierTree id
                            && id.getName().contentEquals(ownerName)) {
                        edits.put(ms, () -> ms.getIdentifier().toString());
                    }
                    return super.visitMethodInvocation(mi, v);
                }
            }.scan(tree.getBody(), null);
        }

        /** The kernel's parameters with matrices expanded, then {@code extra}. */
        private String params(String extra) {
            List<String> ps = new ArrayList<>();
            for (VariableElement p : k.getParameters()) {
                String n = p.getSimpleName().toString();
                String m = matrices.get(n);
                if (m != null) {
                    ps.add("uk.ac.manchester.tornado.api.types.arrays." + cap(m) + "Array " + n);
                    ps.add("int " + n + "_squallRows");
                    ps.add("int " + n + "_squallColumns");
                } else if (vectors.contains(n)) {
                    ps.add("uk.ac.manchester.tornado.api.types.arrays.FloatArray " + n);
                    ps.add("int " + n + "_squallLength");
                } else {
                    ps.add(p.asType().toString() + " " + n);
                }
            }
            if (!extra.isEmpty()) ps.add(extra);
            return String.join(", ", ps);
        }

        /** Boxed parameter types of the generated kernel (for its typed task handle), matrices expanded, then {@code extra}. */
        private List<String> paramTypes(List<String> extra) {
            List<String> ts = new ArrayList<>();
            for (VariableElement p : k.getParameters()) {
                String m = matrices.get(p.getSimpleName().toString());
                if (m != null) {
                    ts.add("uk.ac.manchester.tornado.api.types.arrays." + cap(m) + "Array");
                    ts.add("Integer");
                    ts.add("Integer");
                } else if (vectors.contains(p.getSimpleName().toString())) {
                    ts.add("uk.ac.manchester.tornado.api.types.arrays.FloatArray");
                    ts.add("Integer");
                } else {
                    ts.add(boxed(p.asType().toString()));
                }
            }
            ts.addAll(extra);
            return ts;
        }

        /**
         * VectorFloat4 parameters become floats (vector i is elements 4i .. 4i+3) and Float4 values become their four
         * components: {@code Float4 x = e;} declares x_squall0..3, {@code v.set(i, e);} stores four floats, and
         * {@code Float4.dot}, {@code x.getX()} ... read components. Float4 expressions are {@code v.get(i)}, Float4 locals,
         * {@code new Float4(x, y, z, w)} and {@code Float4.add/sub/mult/div}.
         */
        private void editVectors() {
            if (vectors.isEmpty()) return;
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitVariable(VariableTree v, Void p) {
                    if (isFloat4Type(v.getType())) {
                        if (v.getInitializer() == null) throw new KernelLanguageException(v, "a Float4 local of a kernel is declared with its value");
                        String x = v.getName().toString();
                        float4Locals.add(x);
                        edits.put(v, () -> "float " + x + "_squall0 = " + component(v.getInitializer(), 0) + ", " + x + "_squall1 = "
                                + component(v.getInitializer(), 1) + ", " + x + "_squall2 = " + component(v.getInitializer(), 2) + ", " + x
                                + "_squall3 = " + component(v.getInitializer(), 3) + ";");
                        checkFloat4(v.getInitializer());
                        return null;
                    }
                    return super.visitVariable(v, p);
                }

                @Override
                public Void visitExpressionStatement(ExpressionStatementTree st, Void p) {
                    if (st.getExpression() instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms
                            && isName(ms.getExpression(), vectors) && ms.getIdentifier().contentEquals("set") && mi.getArguments().size() == 2) {
                        String v = ((IdentifierTree) LoopNest.strip(ms.getExpression())).getName().toString();
                        ExpressionTree i = mi.getArguments().get(0), e = mi.getArguments().get(1);
                        edits.put(st, () -> {
                            StringBuilder b = new StringBuilder("{ int " + v + "_squallAt = 4 * (" + text(i) + ");");
                            for (int k = 0; k < 4; k++) b.append(' ').append(v).append(".set(").append(v).append("_squallAt + ").append(k).append(", ")
                                    .append(component(e, k)).append(");");
                            return b.append(" }").toString();
                        });
                        scan(i, p);
                        checkFloat4(e);
                        return null;
                    }
                    if (st.getExpression() instanceof AssignmentTree a && isName(a.getVariable(), float4Locals)) {
                        String x = ((IdentifierTree) LoopNest.strip(a.getVariable())).getName().toString();
                        edits.put(st, () -> {
                            StringBuilder b = new StringBuilder("{");
                            for (int k = 0; k < 4; k++) b.append(" float ").append(x).append("_squallNew").append(k).append(" = ").append(component(a.getExpression(), k)).append(';');
                            for (int k = 0; k < 4; k++) b.append(' ').append(x).append("_squall").append(k).append(" = ").append(x).append("_squallNew").append(k).append(';');
                            return b.append(" }").toString();
                        });
                        checkFloat4(a.getExpression());
                        return null;
                    }
                    return super.visitExpressionStatement(st, p);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
                    if (mi.getMethodSelect() instanceof MemberSelectTree ms) {
                        String m = ms.getIdentifier().toString();
                        List<? extends ExpressionTree> a = mi.getArguments();
                        if (isName(ms.getExpression(), vectors) && (m.equals("getLength") || m.equals("size")) && a.isEmpty()) {
                            String v = ((IdentifierTree) LoopNest.strip(ms.getExpression())).getName().toString();
                            edits.put(mi, () -> v + "_squallLength");
                            return null;
                        }
                        if (isFloat4Class(ms.getExpression()) && m.equals("dot") && a.size() == 2) {
                            edits.put(mi, () -> "(" + component(a.get(0), 0) + " * " + component(a.get(1), 0) + " + " + component(a.get(0), 1) + " * "
                                    + component(a.get(1), 1) + " + " + component(a.get(0), 2) + " * " + component(a.get(1), 2) + " + "
                                    + component(a.get(0), 3) + " * " + component(a.get(1), 3) + ")");
                            checkFloat4(a.get(0));
                            checkFloat4(a.get(1));
                            return null;
                        }
                        int k = switch (m) {
                            case "getX" -> 0;
                            case "getY" -> 1;
                            case "getZ" -> 2;
                            case "getW" -> 3;
                            default -> -1;
                        };
                        if (k >= 0 && a.isEmpty() && isFloat4(ms.getExpression())) {
                            int c = k;
                            edits.put(mi, () -> component(ms.getExpression(), c));
                            checkFloat4(ms.getExpression());
                            return null;
                        }
                    }
                    return super.visitMethodInvocation(mi, p);
                }

                @Override
                public Void visitIdentifier(IdentifierTree id, Void p) {
                    String n = id.getName().toString();
                    if (vectors.contains(n)) {
                        throw new KernelLanguageException(id, "vector " + n + " is used in kernels through get(i), set(i, value) and getLength() only");
                    }
                    if (float4Locals.contains(n)) {
                        throw new KernelLanguageException(id, "Float4 " + n + " is used in kernels through getX() .. getW(), Float4.add/sub/mult/div/dot "
                                + "and vector set(i, value) only");
                    }
                    return null;
                }

                /** Scans the operands inside a Float4 expression (their own edits), rejecting what is not one. */
                private void checkFloat4(ExpressionTree e) {
                    e = LoopNest.strip(e);
                    if (!isFloat4(e)) throw new KernelLanguageException(e, "a Float4 value in a kernel is vector.get(i), a Float4 local, new Float4(x, y, z, w) "
                            + "or Float4.add/sub/mult/div of those");
                    switch (e) {
                        case IdentifierTree id -> { }
                        case NewClassTree n -> n.getArguments().forEach(x -> scan(x, null));
                        case MethodInvocationTree mi when mi.getMethodSelect() instanceof MemberSelectTree ms && isName(ms.getExpression(), vectors) ->
                                scan(mi.getArguments().get(0), null);
                        case MethodInvocationTree mi -> {
                            for (ExpressionTree x : mi.getArguments()) {
                                if (isFloat4(x)) checkFloat4(x);
                                else scan(x, null);
                            }
                        }
                        default -> { }
                    }
                }
            }.scan(tree.getBody(), null);
        }

        private boolean isFloat4Type(Tree t) {
            String s = t.toString();
            return s.equals("Float4") || s.equals(FLOAT4);
        }

        private boolean isFloat4Class(ExpressionTree e) {
            return isFloat4Type(LoopNest.strip(e));
        }

        /** Whether {@code e} is a Float4 value (syntactically: the forms {@link #component} expands). */
        private boolean isFloat4(ExpressionTree e) {
            e = LoopNest.strip(e);
            return switch (e) {
                case IdentifierTree id -> float4Locals.contains(id.getName().toString());
                case NewClassTree n -> isFloat4Type(n.getIdentifier()) && n.getArguments().size() == 4;
                case MethodInvocationTree mi when mi.getMethodSelect() instanceof MemberSelectTree ms -> {
                    String m = ms.getIdentifier().toString();
                    if (isName(ms.getExpression(), vectors)) yield m.equals("get") && mi.getArguments().size() == 1;
                    yield isFloat4Class(ms.getExpression()) && Set.of("add", "sub", "mult", "div").contains(m) && mi.getArguments().size() == 2;
                }
                default -> false;
            };
        }

        /** Component {@code k} (x, y, z, w = 0..3) of a Float4 expression, as float source text. */
        private String component(ExpressionTree e, int k) {
            e = LoopNest.strip(e);
            switch (e) {
                case IdentifierTree id -> {
                    return id.getName() + "_squall" + k;
                }
                case NewClassTree n -> {
                    return "(" + text(n.getArguments().get(k)) + ")";
                }
                case MethodInvocationTree mi when mi.getMethodSelect() instanceof MemberSelectTree ms -> {
                    String m = ms.getIdentifier().toString();
                    List<? extends ExpressionTree> a = mi.getArguments();
                    if (isName(ms.getExpression(), vectors)) return ms.getExpression() + ".get(4 * (" + text(a.get(0)) + ") + " + k + ")";
                    String op = switch (m) {
                        case "add" -> " + ";
                        case "sub" -> " - ";
                        case "mult" -> " * ";
                        default -> " / ";
                    };
                    String right = isFloat4(a.get(1)) ? component(a.get(1), k) : "(" + text(a.get(1)) + ")";
                    return "(" + component(a.get(0), k) + op + right + ")";
                }
                default -> throw new KernelLanguageException(e, "not a Float4 value of the kernel language");
            }
        }

        private void editMatrices() {
            if (matrices.isEmpty()) return;
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                    if (mi.getMethodSelect() instanceof MemberSelectTree ms && ms.getExpression() instanceof IdentifierTree id
                            && matrices.containsKey(id.getName().toString())) {
                        String m = id.getName().toString(), method = ms.getIdentifier().toString();
                        List<? extends ExpressionTree> a = mi.getArguments();
                        Supplier<String> r = switch (method + "/" + a.size()) {
                            case "get/2" -> () -> m + ".get((" + text(a.get(0)) + ") * " + m + "_squallColumns + (" + text(a.get(1)) + "))";
                            case "set/3" -> () -> m + ".set((" + text(a.get(0)) + ") * " + m + "_squallColumns + (" + text(a.get(1)) + "), "
                                    + text(a.get(2)) + ")";
                            case "getNumRows/0" -> () -> m + "_squallRows";
                            case "getNumColumns/0" -> () -> m + "_squallColumns";
                            default -> null;
                        };
                        if (r != null) {
                            edits.put(mi, r);
                            for (ExpressionTree x : a) scan(x, null);
                            return null;
                        }
                    }
                    return super.visitMethodInvocation(mi, v);
                }

                @Override
                public Void visitIdentifier(IdentifierTree id, Void v) {
                    if (matrices.containsKey(id.getName().toString())) {
                        throw new KernelLanguageException(id, "matrix " + id.getName() + " is used in kernels through get(i, j), set(i, j, v), "
                                + "getNumRows() and getNumColumns() only");
                    }
                    return null;
                }
            }.scan(tree.getBody(), null);
        }

        private void reduction(StringBuilder out, Map<String, String> names) {
            String r = reduce.getSimpleName().toString();
            List<? extends StatementTree> body = tree.getBody().getStatements();
            SourceAnnotations annotations = SourceAnnotations.of(cu);
            int loopAt = -1;
            for (int i = 0; i < body.size(); i++) {
                if (LoopNest.isParallel(body.get(i), annotations)) {
                    if (loopAt >= 0) throw new KernelLanguageException(body.get(i), "a @Reduce kernel has one @Parallel loop");
                    loopAt = i;
                }
            }
            if (loopAt < 0) throw new KernelLanguageException(tree, "a @Reduce kernel reduces in a @Parallel loop: for (@Parallel int i = 0; i < n; i++) "
                    + r + "[0] += x[i];");
            if (loopAt != body.size() - 1) throw new KernelLanguageException(body.get(loopAt + 1), "a @Reduce kernel ends with its @Parallel loop");
            ForLoopTree loop = (ForLoopTree) body.get(loopAt);
            VariableTree iv = (VariableTree) loop.getInitializer().get(0);
            String i = iv.getName().toString();
            if (!(loop.getCondition() instanceof BinaryTree c && c.getKind() == Tree.Kind.LESS_THAN && c.getLeftOperand() instanceof IdentifierTree ci
                    && ci.getName().contentEquals(i))) {
                throw new KernelLanguageException(loop, "the @Parallel loop of a @Reduce kernel has the condition " + i + " < bound");
            }
            if (!(loop.getUpdate().size() == 1 && isIncrement(loop.getUpdate().get(0).getExpression(), i))) {
                throw new KernelLanguageException(loop, "the @Parallel loop of a @Reduce kernel steps by one (" + i + "++)");
            }
            List<StatementTree> pre = new ArrayList<>(body.subList(0, loopAt));
            // the update of the reduced value, and no other use of it in the loop
            Update[] found = new Update[1];
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitExpressionStatement(ExpressionStatementTree s, Void v) {
                    Update u = update(s, r);
                    if (u != null) {
                        if (found[0] != null) throw new KernelLanguageException(s, "a @Reduce kernel updates " + r + "[0] once in its loop");
                        found[0] = u;
                        edits.put(s, () -> found[0].op.fold("squallAcc", "(" + text(found[0].contribution) + ")"));
                        return scan(found[0].contribution, null);
                    }
                    return super.visitExpressionStatement(s, v);
                }

                @Override
                public Void visitIdentifier(IdentifierTree id, Void v) {
                    if (id.getName().contentEquals(r)) {
                        throw new KernelLanguageException(id, "in the loop of a @Reduce kernel, " + r + " is used only as " + r + "[0] OP= value, "
                                + r + "[0] = " + r + "[0] OP value, " + r + "[0] = Math.max(" + r + "[0], value) (or min), or " + r + ".set(0, "
                                + r + ".get(0) OP value), with OP + or *");
                    }
                    return null;
                }
            }.scan(loop.getStatement(), null);
            if (found[0] == null) throw new KernelLanguageException(loop, "the @Parallel loop of a @Reduce kernel updates " + r + "[0]");
            Update u = found[0];
            String name = k.getSimpleName().toString(), t = reduceType, T = cap(t);
            String ctx = "uk.ac.manchester.tornado.api.KernelContext squallContext";
            String partialsType = "dev.squall.tasks.api." + T + "Array";
            // stage 1: the loop, grid-stride, then the work-group fold
            StringBuilder s1 = new StringBuilder();
            for (StatementTree s : pre) if (!mentions(s, r)) s1.append("        ").append(text(s)).append('\n');
            s1.append("        ").append(t).append(" squallAcc = ").append(u.op.identity(t)).append(";\n");
            s1.append("        for (").append(text(iv.getType())).append(' ').append(i).append(" = (").append(text(iv.getInitializer()))
                    .append(") + squallContext.globalIdx; ").append(i).append(" < (").append(text(((BinaryTree) loop.getCondition()).getRightOperand()))
                    .append("); ").append(i).append(" += squallContext.globalGroupSizeX) ").append(text(loop.getStatement())).append('\n');
            s1.append(groupFold(t, u.op)).append("        if (squallContext.localIdx == 0) squallPartials.set(squallContext.groupIdx, squallPart[0]);\n");
            String p1 = name + "_squallPartials", p2 = name + "_squallCombine";
            out.append("\n    public static void ").append(p1).append("(").append(params(ctx + ", " + partialsType + " squallPartials")).append(") {\n")
                    .append(s1).append("    }\n");
            // stage 2: fold the partials; the first work-item runs the statements before the loop and the user's update
            StringBuilder s2 = new StringBuilder();
            s2.append("        ").append(t).append(" squallAcc = ").append(u.op.identity(t)).append(";\n");
            s2.append("        for (int squallJ = squallContext.localIdx; squallJ < squallGroups; squallJ += ").append(GROUP).append(") ")
                    .append(u.op.fold("squallAcc", "squallPartials.get(squallJ)")).append('\n');
            s2.append(groupFold(t, u.op));
            edits.put(u.contribution, () -> "squallPart[0]");
            edits.remove(u.statement);
            s2.append("        if (squallContext.localIdx == 0) {\n");
            for (StatementTree s : pre) s2.append("            ").append(text(s)).append('\n');
            s2.append("            ").append(text(u.statement)).append("\n        }\n");
            out.append("\n    public static void ").append(p2).append("(")
                    .append(params(ctx + ", " + partialsType + " squallPartials, int squallGroups")).append(") {\n").append(s2).append("    }\n");
            String w = "the @Reduce task kernel " + name + " is reduced in two stages, " + p1 + " and " + p2 + ": " + why;
            names.put(p1, w);
            names.put(p2, w);
            host(out, null, new String[] {p1, p2, partialsType});
        }

        /** The work-group's fold of {@code squallAcc} in local memory, unrolled for {@link #GROUP} work-items: the total ends in squallPart[0]. */
        private String groupFold(String t, Op op) {
            StringBuilder b = new StringBuilder();
            b.append("        ").append(t).append("[] squallPart = squallContext.allocate").append(cap(t)).append("LocalArray(").append(GROUP).append(");\n");
            b.append("        squallPart[squallContext.localIdx] = squallAcc;\n        squallContext.localBarrier();\n");
            for (int s = GROUP / 2; s > 0; s /= 2) {
                b.append("        if (squallContext.localIdx < ").append(s).append(") { ").append(t).append(" squallMine = squallPart[squallContext.localIdx]; ")
                        .append(op.fold("squallMine", "squallPart[squallContext.localIdx + " + s + "]"))
                        .append(" squallPart[squallContext.localIdx] = squallMine; }\n        squallContext.localBarrier();\n");
            }
            return b.toString();
        }

        /**
         * The host method that adds the task(s): {@code flat} for a matrix-only rewrite, else the reduction's stages and
         * partials type. Arguments are expanded (a matrix: its elements, rows, columns) and turned into device arguments
         * by {@code device} (the compatibility layer's conversion).
         */
        private void host(StringBuilder out, String flat, String[] reduction) {
            String name = k.getSimpleName().toString();
            out.append("\n    /** Adds ").append(name).append(" as ").append(reduction == null ? "its rewrite " + flat : "the two stages of its reduction")
                    .append(" to {@code g}; {@code args} as the program passed them. */\n");
            out.append("    public static void ").append(name).append("(dev.squall.tasks.runtime.TaskGraph g, String id, Object[] args, "
                    + "java.util.function.Function<Object, Object> device) {\n");
            out.append("        java.util.List<Object> a = new java.util.ArrayList<>();\n");
            List<? extends VariableElement> ps = k.getParameters();
            for (int j = 0; j < ps.size(); j++) {
                String n = ps.get(j).getSimpleName().toString(), m = matrices.get(n);
                if (vectors.contains(n)) {
                    out.append("        if (!(args[").append(j).append("] instanceof ").append(VECTOR_FLOAT4).append(" v").append(j)
                            .append(")) throw new IllegalArgumentException(\"argument ").append(j).append(" (").append(n).append(") of ").append(name)
                            .append(" must be a VectorFloat4\");\n");
                    out.append("        a.add(device.apply(v").append(j).append(".getArray())); a.add(v").append(j).append(".getLength());\n");
                } else if (m != null) {
                    String mt = "uk.ac.manchester.tornado.api.types.matrix.Matrix2D" + cap(m);
                    out.append("        if (!(args[").append(j).append("] instanceof ").append(mt).append(" m").append(j).append(")) throw new IllegalArgumentException(\"argument ")
                            .append(j).append(" (").append(n).append(") of ").append(name).append(" must be a ").append("Matrix2D").append(cap(m)).append("\");\n");
                    out.append("        a.add(device.apply(m").append(j).append(".getArray())); a.add(m").append(j).append(".getNumRows()); a.add(m")
                            .append(j).append(".getNumColumns());\n");
                } else {
                    out.append("        a.add(device.apply(args[").append(j).append("]));\n");
                }
            }
            if (reduction == null) {
                out.append("        ").append(handle(flat, paramTypes(List.of()), "kernel")).append('\n');
                out.append("        g.task(id, ").append(call(paramTypes(List.of()).size(), "kernel")).append(");\n    }\n");
                return;
            }
            String partials = reduction[2];
            // the loop's length is not known here: the largest array or integer argument stands for it (the grid-stride
            // loop is right for any number of groups; this only sizes the first stage)
            out.append("        long n = 1;\n        for (Object o : a) {\n"
                    + "            if (o instanceof dev.squall.tasks.api.KernelArray k) n = Math.max(n, k.getSizeLong());\n"
                    + "            else if (o instanceof Integer i) n = Math.max(n, i);\n"
                    + "            else if (o instanceof Long l) n = Math.max(n, l);\n        }\n");
            out.append("        int groups = (int) Math.min(").append(MAX_GROUPS).append(", (n + ").append(GROUP - 1).append(") / ").append(GROUP).append(");\n");
            out.append("        ").append(partials).append(" partials = new ").append(partials).append("(groups);\n");
            List<String> t1 = paramTypes(List.of("uk.ac.manchester.tornado.api.KernelContext", partials));
            List<String> t2 = paramTypes(List.of("uk.ac.manchester.tornado.api.KernelContext", partials, "Integer"));
            out.append("        a.add(new uk.ac.manchester.tornado.api.KernelContext());\n        a.add(partials);\n");
            out.append("        ").append(handle(reduction[0], t1, "kernel")).append('\n');
            out.append("        g.task(id, dev.squall.tasks.runtime.WorkerGrid.of((long) groups * ").append(GROUP).append(").withLocal(").append(GROUP)
                    .append("), ").append(call(t1.size(), "kernel")).append(");\n");
            out.append("        a.add(groups);\n        ").append(handle(reduction[1], t2, "combine")).append('\n');
            out.append("        g.task(id + \".combine\", dev.squall.tasks.runtime.WorkerGrid.of(").append(GROUP).append(").withLocal(").append(GROUP)
                    .append("), ").append(call(t2.size(), "combine")).append(");\n    }\n");
        }

        /** A typed handle on a generated kernel: the runtime finds kernels through method references. */
        private String handle(String kernel, List<String> types, String var) {
            return "dev.squall.tasks.runtime.KernelFunctions.Task" + types.size() + "<" + String.join(", ", types) + "> " + var + " = "
                    + genClass + "::" + kernel + ";";
        }

        /** The raw handle and the expanded arguments, in the runtime's task(...) argument order. */
        private String call(int n, String var) {
            StringBuilder b = new StringBuilder("(dev.squall.tasks.runtime.KernelFunctions.Task" + n + ") " + var);
            for (int j = 0; j < n; j++) b.append(", a.get(").append(j).append(")");
            return b.toString();
        }
    }

    /** An update of the reduced value {@code r[0]}: its statement, operator and contribution. */
    private record Update(StatementTree statement, Op op, ExpressionTree contribution) {
    }

    /** The update of {@code r[0]} that statement {@code s} is, in one of the documented forms, or null. */
    private static Update update(ExpressionStatementTree s, String r) {
        ExpressionTree e = s.getExpression();
        if (e instanceof CompoundAssignmentTree c && isElement0(c.getVariable(), r)) {
            Op op = c.getKind() == Tree.Kind.PLUS_ASSIGNMENT ? Op.SUM : c.getKind() == Tree.Kind.MULTIPLY_ASSIGNMENT ? Op.PRODUCT : null;
            return op == null ? null : new Update(s, op, c.getExpression());
        }
        if (e instanceof AssignmentTree a && isElement0(a.getVariable(), r)) return fromValue(s, a.getExpression(), r);
        if (e instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms && isName(ms.getExpression(), r)
                && ms.getIdentifier().contentEquals("set") && mi.getArguments().size() == 2 && isZero(mi.getArguments().get(0))) {
            return fromValue(s, mi.getArguments().get(1), r);
        }
        return null;
    }

    /** {@code r[0] OP e}, {@code e OP r[0]} (OP + or *) or {@code Math.max(r[0], e)} (max, min; Math or TornadoMath), or null. */
    private static Update fromValue(StatementTree s, ExpressionTree v, String r) {
        v = LoopNest.strip(v);
        if (v instanceof BinaryTree b && (b.getKind() == Tree.Kind.PLUS || b.getKind() == Tree.Kind.MULTIPLY)) {
            Op op = b.getKind() == Tree.Kind.PLUS ? Op.SUM : Op.PRODUCT;
            if (isElement0(b.getLeftOperand(), r)) return new Update(s, op, b.getRightOperand());
            if (isElement0(b.getRightOperand(), r)) return new Update(s, op, b.getLeftOperand());
        }
        if (v instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms && mi.getArguments().size() == 2
                && (ms.getExpression().toString().equals("Math") || ms.getExpression().toString().endsWith("TornadoMath"))
                && (ms.getIdentifier().contentEquals("max") || ms.getIdentifier().contentEquals("min"))) {
            Op op = ms.getIdentifier().contentEquals("max") ? Op.MAX : Op.MIN;
            if (isElement0(mi.getArguments().get(0), r)) return new Update(s, op, mi.getArguments().get(1));
            if (isElement0(mi.getArguments().get(1), r)) return new Update(s, op, mi.getArguments().get(0));
        }
        return null;
    }

    /** {@code r[0]} or {@code r.get(0)}. */
    private static boolean isElement0(ExpressionTree e, String r) {
        e = LoopNest.strip(e);
        if (e instanceof ArrayAccessTree a) return isName(a.getExpression(), r) && isZero(a.getIndex());
        return e instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms && isName(ms.getExpression(), r)
                && ms.getIdentifier().contentEquals("get") && mi.getArguments().size() == 1 && isZero(mi.getArguments().get(0));
    }

    private static boolean isZero(ExpressionTree e) {
        return LoopNest.strip(e) instanceof LiteralTree l && Integer.valueOf(0).equals(l.getValue());
    }

    private static boolean isIncrement(ExpressionTree e, String i) {
        return switch (e) {
            case UnaryTree u when (u.getKind() == Tree.Kind.POSTFIX_INCREMENT || u.getKind() == Tree.Kind.PREFIX_INCREMENT) -> isName(u.getExpression(), i);
            case CompoundAssignmentTree c when c.getKind() == Tree.Kind.PLUS_ASSIGNMENT -> isName(c.getVariable(), i)
                    && c.getExpression() instanceof LiteralTree l && Integer.valueOf(1).equals(l.getValue());
            default -> false;
        };
    }

    private static boolean isName(ExpressionTree e, Set<String> names) {
        return LoopNest.strip(e) instanceof IdentifierTree id && names.contains(id.getName().toString());
    }

    private static boolean isName(ExpressionTree e, String n) {
        return LoopNest.strip(e) instanceof IdentifierTree id && id.getName().contentEquals(n);
    }

    private static boolean mentions(Tree t, String name) {
        boolean[] yes = new boolean[1];
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree id, Void v) {
                yes[0] |= id.getName().contentEquals(name);
                return null;
            }
        }.scan(t, null);
        return yes[0];
    }

    static String cap(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String boxed(String t) {
        return switch (t) {
            case "int" -> "Integer";
            case "long" -> "Long";
            case "float" -> "Float";
            case "double" -> "Double";
            case "short" -> "Short";
            case "byte" -> "Byte";
            case "boolean" -> "Boolean";
            default -> t;
        };
    }
}
