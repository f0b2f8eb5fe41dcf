package dev.squall.tasks.compiler;

import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import dev.squall.tasks.api.ReadOnly;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one kernel or device function being translated declares: the C name of each parameter and local
 * (unique, and renamed where it clashes with C), which arrays are {@code @ReadOnly}, private or local, and the
 * declarations hoisted to the top of the C function (local memory).
 */
final class FunctionScope {
    final MethodTree tree;
    final ExecutableElement el;
    final boolean kernel;
    /** A kernel or device function whose first parameter is the KernelContext. */
    final boolean spmd;
    final TreePath root;
    /** The @Parallel loop nest of a LOOP kernel, once found; null otherwise. */
    LoopNest nest;
    private final Map<Element, String> names = new HashMap<>();
    private final Set<String> used = new HashSet<>();
    private final Set<Element> readOnly = new HashSet<>();
    /** Private arrays declared here (new T[K]): what mma8x8x4 accumulates into. */
    private final Set<Element> privateArrays = new HashSet<>();
    /** Local-memory arrays declared here (ctx.allocate...LocalArray): what asyncCopy copies into. */
    private final Set<Element> localArrays = new HashSet<>();
    private final StringBuilder hoisted = new StringBuilder();
    private boolean exchange;
    /** The ctx.asyncCopy calls of this kernel, in source order. */
    private final List<Tree> asyncCopies = new ArrayList<>();
    private boolean asyncWait;
    private boolean barrier;

    FunctionScope(MethodTree tree, ExecutableElement el, boolean kernel, TreePath root) {
        this.tree = tree;
        this.el = el;
        this.kernel = kernel;
        this.root = root;
        this.spmd = KernelTypes.contextIndex(el) >= 0;
        for (VariableElement p : el.getParameters()) {
            if (KernelTypes.isContext(p.asType())) continue;
            declare(p, p.getSimpleName().toString());
            if (KernelTypes.has(p, ApiNames.READ_ONLY)) readOnly.add(p);
        }
    }

    /** A C name from {@code base} that no other variable of this function has and that C gives no meaning. */
    String unique(String base) {
        String n = base;
        if (CTranslator.reservedInC(n)) n = n + "_v";
        String c = n;
        for (int i = 1; used.contains(c); i++) c = n + "_" + i;
        used.add(c);
        return c;
    }

    /** Gives variable {@code e} a {@link #unique} C name from {@code base} and returns it. */
    String declare(Element e, String base) {
        String n = unique(base);
        names.put(e, n);
        return n;
    }

    /** The C name of a declared variable or parameter, or null for anything else. */
    String name(Element e) {
        return names.get(e);
    }

    boolean isReadOnly(Element e) {
        return readOnly.contains(e);
    }

    void markPrivateArray(Element e) {
        privateArrays.add(e);
    }

    boolean isPrivateArray(Element e) {
        return privateArrays.contains(e);
    }

    void markLocalArray(Element e) {
        localArrays.add(e);
    }

    boolean isLocalArray(Element e) {
        return localArrays.contains(e);
    }

    private final List<CDialect.LocalArray> localDecls = new ArrayList<>();

    /** Declares a local-memory array of the kernel; the dialect writes the declarations at the top of the body. */
    void addLocalArray(CDialect.LocalArray a) {
        localDecls.add(a);
    }

    List<CDialect.LocalArray> localDecls() {
        return localDecls;
    }

    /** Adds a declaration (one line of C) to the top of the function body. */
    void hoist(String declaration) {
        hoisted.append("    ").append(declaration).append('\n');
    }

    String hoisted() {
        return hoisted.toString();
    }

    /** Sub-group operations of this kernel exchange values through the dialect's local buffer. */
    void useExchangeBuffer() {
        exchange = true;
    }

    boolean usesExchangeBuffer() {
        return exchange;
    }

    void noteAsyncCopy(Tree call) {
        asyncCopies.add(call);
    }

    void noteAsyncWait() {
        asyncWait = true;
    }

    void noteBarrier() {
        barrier = true;
    }

    /** Rejects a kernel that starts asynchronous copies and never waits for them, or never publishes them with a barrier. */
    void checkAsyncCopiesAwaited() {
        if (asyncCopies.isEmpty()) return;
        if (!asyncWait || !barrier) {
            throw new KernelLanguageException(asyncCopies.get(0), "this kernel starts asynchronous copies but never "
                    + (asyncWait ? "calls ctx.localBarrier()" : "waits for them") + ": call ctx.asyncWait() and then ctx.localBarrier() "
                    + "in the kernel before reading the copied data");
        }
    }
}
