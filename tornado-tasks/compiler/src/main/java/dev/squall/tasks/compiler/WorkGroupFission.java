package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

import javax.lang.model.element.*;
import javax.lang.model.type.TypeMirror;
import java.util.*;

/**
 * Splits an SPMD kernel at its barriers and sub-group operations into a JVM work-group runner
 * (region / loop fission, as pocl's work-group functions and MCUDA do): one work-group runs as
 * loops over its work-items.
 * <ul>
 *   <li>Statements between collective points (barriers, shuffles, sub-group reductions, mma) become
 *       a <em>region</em>: {@code for} every work-item, the statements.</li>
 *   <li>Control flow that contains a collective point ({@code if}, {@code for}, {@code while},
 *       {@code do}, blocks) runs once for the group; its condition is evaluated for work-item 0 (the
 *       language requires every work-item to reach each barrier, so it is uniform). With
 *       {@code -Dsquall.jvm.checkUniform=true} the runner checks that every work-item agrees.</li>
 *   <li>A sub-group operation inside a statement splits it: its arguments are stored per work-item at
 *       the end of the region before, the operation runs for the whole group ({@code WorkGroupOps}),
 *       and the statement finishes in the region after with the work-item's result.</li>
 *   <li>Locals declared between collective points and used across one are kept per work-item (an array
 *       indexed by the work-item's linear id, allocated once per chunk of groups); local-memory arrays
 *       once per group; loop variables of group-level loops stay scalars: their step must be
 *       the same for every work-item (their start is taken from work-item 0 where it is not evidently so,
 *       and checked with the conditions).</li>
 *   <li>{@code if (uniform) return;} before a barrier leaves the group; {@code return} in the last
 *       region ends the work-item.</li>
 * </ul>
 * Kernels outside these forms (a barrier in a {@code switch}, {@code return} or {@code break} across a
 * barrier, a device function that uses barriers...) throw {@link Fallback} with the reason; they run
 * their work-items concurrently instead.
 */
final class WorkGroupFission {
    /** The kernel cannot be split; {@link #getMessage()} says why. */
    static final class Fallback extends RuntimeException {
        Fallback(String reason) {
            super(reason, null, false, false);
        }
    }

    private static final Set<String> BARRIERS = Set.of("localBarrier", "globalBarrier");
    private static final Set<String> SUBGROUP_OPS = Set.of("shuffle", "shuffleDown", "shuffleXor", "subgroupReduceAdd", "mma8x8x4", "mma16x8x4");
    private static final Set<String> CONTEXT_CALLS_WITHOUT_IDS = Set.of("atomicAdd", "atomicMax", "atomicMin", "atomicCompareAndSwap", "globalFence",
            "volatileLoad", "volatileStore");
    private static final int GROUP = -1;

    private enum DeclKind { PARAM, CONTEXT, SEQUENCE, NESTED, LOOP, LOCAL_ARRAY, BOUND }

    private static final class Decl {
        final String name;
        String type;
        final VariableTree tree;
        DeclKind kind;
        int home = GROUP;
        final Set<Integer> sites = new HashSet<>();
        boolean assigned;
        boolean replicated;
        String storage;
        /** The Java name it is declared under: its own, or prefixed when it belongs to an inlined device function. */
        String printed;

        Decl(String name, String type, VariableTree tree, DeclKind kind) {
            this.name = name;
            this.type = type;
            this.tree = tree;
            this.kind = kind;
            this.printed = name;
        }
    }

    private sealed interface Item permits Region, Op, Structure, EarlyReturn, GroupDecl, Inline {
    }

    private record Region(int id, List<Entry> entries) implements Item {
    }

    /**
     * A region's statement; {@code op} set: the statement that finishes after that operation, with its result;
     * {@code capture} set: the operation's arguments stored; {@code bound} set: a device function's parameter bound.
     */
    private record Entry(StatementTree stmt, Op op, Op capture, Binding bound) {
        Entry(StatementTree stmt, Op op, Op capture) {
            this(stmt, op, capture, null);
        }
    }

    /** A parameter of an inlined device function and its argument. */
    private record Binding(Decl param, ExpressionTree arg) {
    }

    /** A device function with barriers, inlined: parameters bound once for the group where their arguments are uniform. */
    private record Inline(String label, List<Binding> groupBindings, List<Item> body) implements Item {
    }

    /** A sub-group operation for the whole group. */
    private record Op(int id, MethodInvocationTree call, String name, List<String> argTypes) implements Item {
        String resultType() {
            return name.startsWith("mma") ? null : argTypes.get(0);
        }
    }

    /** Control flow containing collective points, run once for the group. */
    private record Structure(StatementTree stmt, List<List<Item>> bodies) implements Item {
    }

    private record EarlyReturn(IfTree stmt) implements Item {
    }

    private record GroupDecl(VariableTree decl) implements Item {
    }

    private final String kernelName;
    private final MethodTree kernel;
    private final TypeElement owner;
    private final String ctxName;
    private final JavaBodyPrinter jp;
    private final Map<String, ExecutableElement> devFns = new HashMap<>();
    private final Set<String> collectiveDevFns = new HashSet<>();
    private final Map<IdentifierTree, Decl> refs = new IdentityHashMap<>();
    private final Map<VariableTree, Decl> decls = new IdentityHashMap<>();
    private final Map<MethodInvocationTree, Op> opsByCall = new IdentityHashMap<>();
    private final Set<Decl> uniformLocals = new HashSet<>();
    private final Set<Decl> uniformLoopVars = new HashSet<>();
    private final List<Decl> all = new ArrayList<>();
    private int regions, ops, conds;
    /** True while printing code that runs once for the group (work-item 0's view). */
    private boolean groupMode;
    private boolean usesContextObject;
    /** What {@code if (uniform) return;} becomes: leave the group, or the inlined device function. */
    private String exit = "continue sq$groups";

    /**
     * @param params the kernel's parameters, in order; the first is the {@code KernelContext}
     */
    WorkGroupFission(ExecutableElement element, MethodTree kernel, TypeElement owner, Trees trees) {
        this.kernelName = element.getSimpleName().toString();
        this.kernel = kernel;
        this.owner = owner;
        List<String> pnames = new ArrayList<>();
        for (VariableElement p : element.getParameters()) pnames.add(p.getSimpleName().toString());
        this.ctxName = pnames.get(KernelTypes.contextIndex(element));
        this.jp = new JavaBodyPrinter(owner, pnames);
        for (Element e : owner.getEnclosedElements()) {
            if (e instanceof ExecutableElement m && KernelTypes.isDeviceFunction(m)) {
                devFns.put(m.getSimpleName().toString(), m);
                MethodTree t = trees.getTree(m);
                if (t != null) fnTrees.put(m.getSimpleName().toString(), t);
                if (t != null && KernelFacts.collective(t, owner, trees)) collectiveDevFns.add(m.getSimpleName().toString());
            }
        }
        Map<String, Decl> params = new HashMap<>();
        for (int i = 0; i < element.getParameters().size(); i++) {
            VariableElement p = element.getParameters().get(i);
            TypeMirror t = p.asType();
            String elem = KernelTypes.arrayElement(t);
            Decl d = new Decl(p.getSimpleName().toString(), elem != null ? elem + "Array" : t.toString(), null, KernelTypes.isContext(t) ? DeclKind.CONTEXT : DeclKind.PARAM);
            params.put(d.name, d);
        }
        resolve(kernel.getBody(), params, "");
    }

    // ---- names: which declaration every identifier refers to ----

    private void resolve(Tree root, Map<String, Decl> params, String prefix) {
        Deque<Map<String, Decl>> scopes = new ArrayDeque<>();
        scopes.push(params);
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitBlock(BlockTree b, Void v) {
                scopes.push(new HashMap<>());
                super.visitBlock(b, v);
                scopes.pop();
                return null;
            }

            @Override
            public Void visitForLoop(ForLoopTree f, Void v) {
                scopes.push(new HashMap<>());
                super.visitForLoop(f, v);
                scopes.pop();
                return null;
            }

            @Override
            public Void visitSwitch(SwitchTree s, Void v) {
                scan(s.getExpression(), v);
                scopes.push(new HashMap<>());
                scan(s.getCases(), v);
                scopes.pop();
                return null;
            }

            @Override
            public Void visitVariable(VariableTree t, Void v) {
                scan(t.getInitializer(), v);
                String type = t.getType() == null || t.getType().toString().equals("var") ? null : t.getType().toString();
                Decl d = new Decl(t.getName().toString(), type, t, DeclKind.NESTED);
                if (type == null && t.getInitializer() != null) d.type = typeOf(t.getInitializer());
                d.printed = prefix + d.name;
                decls.put(t, d);
                all.add(d);
                scopes.peek().put(d.name, d);
                return null;
            }

            @Override
            public Void visitIdentifier(IdentifierTree id, Void v) {
                String n = id.getName().toString();
                for (Map<String, Decl> s : scopes) {
                    Decl d = s.get(n);
                    if (d != null) {
                        refs.put(id, d);
                        break;
                    }
                }
                return null;
            }

            @Override
            public Void visitAssignment(AssignmentTree a, Void v) {
                super.visitAssignment(a, v);
                markAssigned(a.getVariable());
                return null;
            }

            @Override
            public Void visitCompoundAssignment(CompoundAssignmentTree a, Void v) {
                super.visitCompoundAssignment(a, v);
                markAssigned(a.getVariable());
                return null;
            }

            @Override
            public Void visitUnary(UnaryTree u, Void v) {
                super.visitUnary(u, v);
                switch (u.getKind()) {
                    case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> markAssigned(u.getExpression());
                    default -> { }
                }
                return null;
            }
        }.scan(root, null);
    }

    private void markAssigned(ExpressionTree target) {
        if (LoopNest.strip(target) instanceof IdentifierTree id && refs.get(id) != null) refs.get(id).assigned = true;
    }

    // ---- collective points ----

    private boolean isContext(ExpressionTree e) {
        return LoopNest.strip(e) instanceof IdentifierTree id && refs.get(id) != null && refs.get(id).kind == DeclKind.CONTEXT;
    }

    /** The name of a {@code ctx.m(...)} call, or null. */
    private String contextCall(MethodInvocationTree mi) {
        return mi.getMethodSelect() instanceof MemberSelectTree ms && isContext(ms.getExpression()) ? ms.getIdentifier().toString() : null;
    }

    private static String calledName(MethodInvocationTree mi) {
        return switch (mi.getMethodSelect()) {
            case MemberSelectTree ms -> ms.getIdentifier().toString();
            case IdentifierTree id -> id.getName().toString();
            default -> "";
        };
    }

    /** The collective calls in a tree (barriers and sub-group operations of the context); device functions that use them are refused. */
    private List<MethodInvocationTree> collectives(Tree t) {
        List<MethodInvocationTree> found = new ArrayList<>();
        if (t == null) return found;
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                String c = contextCall(mi);
                if (c != null && (BARRIERS.contains(c) || SUBGROUP_OPS.contains(c))) found.add(mi);
                else if (c == null && collectiveDevFns.contains(calledName(mi))) found.add(mi);
                return super.visitMethodInvocation(mi, v);
            }
        }.scan(t, null);
        return found;
    }

    // ---- structure ----

    private List<Item> body;

    /** Splits the kernel; throws {@link Fallback} when it cannot. */
    WorkGroupFission split() {
        body = sequence(kernel.getBody().getStatements(), true);
        for (Item it : body) check(it, it == body.getLast());
        sites(body);
        classify();
        return this;
    }

    private List<Item> sequence(List<? extends StatementTree> stmts, boolean top) {
        List<Item> items = new ArrayList<>();
        List<Item> decls = new ArrayList<>();
        Region region = null;
        for (int i = 0; i < stmts.size(); i++) {
            StatementTree s = stmts.get(i);
            if (s instanceof VariableTree v && v.getInitializer() instanceof MethodInvocationTree mi && contextCall(mi) != null
                    && contextCall(mi).startsWith("allocate")) {
                this.decls.get(v).kind = DeclKind.LOCAL_ARRAY;
                decls.add(new GroupDecl(v));
                continue;
            }
            List<MethodInvocationTree> cs = collectives(s);
            if (cs.isEmpty()) {
                if (top && s instanceof IfTree ift && returnsOnly(ift) && laterCollective(stmts, i)) {
                    if (!uniform(ift.getCondition())) {
                        throw new Fallback("it returns before a barrier under a condition that may differ between work-items (line of `"
                                + ift.getCondition() + "`)");
                    }
                    items.add(new EarlyReturn(ift));
                    region = null;
                    continue;
                }
                if (region == null) items.add(region = new Region(regions++, new ArrayList<>()));
                if (s instanceof VariableTree v) this.decls.get(v).kind = DeclKind.SEQUENCE;
                region.entries.add(new Entry(s, null, null));
                continue;
            }
            switch (s) {
                case ExpressionStatementTree es when es.getExpression() instanceof MethodInvocationTree mi && cs.size() == 1 && cs.get(0) == mi
                        && contextCall(mi) != null && BARRIERS.contains(contextCall(mi)) -> region = null;
                case ExpressionStatementTree es when es.getExpression() instanceof MethodInvocationTree mi && cs.size() == 1 && cs.get(0) == mi
                        && contextCall(mi) == null -> {
                    items.add(inline(mi));
                    region = null;
                }
                case BlockTree b -> {
                    items.add(new Structure(b, List.of(sequence(b.getStatements(), false))));
                    region = null;
                }
                case IfTree ift -> {
                    List<List<Item>> bodies = new ArrayList<>();
                    bodies.add(sequence(statements(ift.getThenStatement()), false));
                    if (ift.getElseStatement() != null) bodies.add(sequence(statements(ift.getElseStatement()), false));
                    items.add(new Structure(ift, bodies));
                    region = null;
                }
                case ForLoopTree f -> {
                    loopVariables(f);
                    items.add(new Structure(f, List.of(sequence(statements(f.getStatement()), false))));
                    region = null;
                }
                case WhileLoopTree w -> {
                    items.add(new Structure(w, List.of(sequence(statements(w.getStatement()), false))));
                    region = null;
                }
                case DoWhileLoopTree d -> {
                    items.add(new Structure(d, List.of(sequence(statements(d.getStatement()), false))));
                    region = null;
                }
                case ExpressionStatementTree es when cs.size() == 1 -> region = splitAt(s, cs.get(0), items, region);
                case VariableTree v when cs.size() == 1 -> {
                    this.decls.get(v).kind = DeclKind.SEQUENCE;
                    region = splitAt(s, cs.get(0), items, region);
                }
                default -> throw new Fallback(cs.size() > 1 && (s instanceof ExpressionStatementTree || s instanceof VariableTree)
                        ? "one statement makes " + cs.size() + " barriers or sub-group operations (write one a statement)"
                        : "a barrier or sub-group operation inside a " + s.getKind().toString().toLowerCase(Locale.ROOT).replace('_', ' '));
            }
        }
        decls.addAll(items);
        return decls;
    }

    private static List<? extends StatementTree> statements(StatementTree s) {
        return s instanceof BlockTree b ? b.getStatements() : List.of(s);
    }

    /** {@code if (c) return;} or {@code if (c) { return; }}. */
    private static boolean returnsOnly(IfTree ift) {
        if (ift.getElseStatement() != null) return false;
        List<? extends StatementTree> ss = statements(ift.getThenStatement());
        return ss.size() == 1 && ss.get(0) instanceof ReturnTree;
    }

    private boolean laterCollective(List<? extends StatementTree> stmts, int i) {
        for (int j = i + 1; j < stmts.size(); j++) if (!collectives(stmts.get(j)).isEmpty()) return true;
        return false;
    }

    private Region splitAt(StatementTree s, MethodInvocationTree call, List<Item> items, Region region) {
        String name = contextCall(call);
        if (name == null) throw new Fallback("it calls device function " + calledName(call) + ", which uses barriers, inside an expression");
        if (BARRIERS.contains(name)) throw new Fallback("a barrier inside an expression");
        for (ExpressionTree a : call.getArguments()) {
            if (!collectives(a).isEmpty()) throw new Fallback("a sub-group operation inside the arguments of another");
        }
        List<String> types = new ArrayList<>();
        for (ExpressionTree a : call.getArguments()) {
            String t = typeOf(a);
            if (t == null) throw new Fallback("the type of `" + a + "` (an argument of " + name + ") is not evident from the source; assign it to a typed local first");
            types.add(t);
        }
        if (name.startsWith("mma") && !(s instanceof ExpressionStatementTree es && es.getExpression() == call)) {
            throw new Fallback(name + " inside an expression");
        }
        Op op = new Op(ops++, call, name, types);
        opsByCall.put(call, op);
        if (region == null) items.add(region = new Region(regions++, new ArrayList<>()));
        region.entries.add(new Entry(null, null, op));
        items.add(op);
        Region after = new Region(regions++, new ArrayList<>());
        items.add(after);
        if (!name.startsWith("mma")) after.entries.add(new Entry(s, op, null));
        return after;
    }

    private final Set<String> inlined = new HashSet<>();
    private final Map<String, MethodTree> fnTrees = new HashMap<>();

    /** A statement calling a device function that has barriers: its body becomes part of the kernel's. */
    private Inline inline(MethodInvocationTree call) {
        String fname = calledName(call);
        ExecutableElement fe = devFns.get(fname);
        MethodTree ft = fnTrees.get(fname);
        if (fe == null || ft == null || ft.getBody() == null) throw new Fallback("device function " + fname + " is not available as source");
        if (!inlined.add(fname)) throw new Fallback("it calls device function " + fname + ", which uses barriers, more than once");
        String prefix = "sq$" + fname + "_";
        Map<String, Decl> scope = new HashMap<>();
        List<Decl> params = new ArrayList<>();
        for (VariableElement p : fe.getParameters()) {
            boolean context = KernelTypes.isContext(p.asType());
            Decl d = new Decl(p.getSimpleName().toString(), p.asType().toString(), null, context ? DeclKind.CONTEXT : DeclKind.SEQUENCE);
            d.printed = prefix + d.name;
            params.add(d);
            all.add(d);
            scope.put(d.name, d);
        }
        resolve(ft.getBody(), scope, prefix);
        List<Binding> group = new ArrayList<>(), perItem = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            Decl d = params.get(i);
            ExpressionTree arg = call.getArguments().get(i);
            if (d.kind == DeclKind.CONTEXT) {
                if (!isContext(arg)) throw new Fallback("device function " + fname + " gets a KernelContext other than the kernel's");
                continue;
            }
            if (d.assigned || !uniform(arg)) {
                perItem.add(new Binding(d, arg));
            } else {
                d.kind = DeclKind.BOUND;
                group.add(new Binding(d, arg));
            }
        }
        List<Item> body = sequence(ft.getBody().getStatements(), true);
        if (!perItem.isEmpty()) {
            int at = 0;
            while (at < body.size() && body.get(at) instanceof GroupDecl) at++;
            Region first;
            if (at < body.size() && body.get(at) instanceof Region r) first = r;
            else body.add(at, first = new Region(regions++, new ArrayList<>()));
            for (int i = perItem.size() - 1; i >= 0; i--) first.entries.add(0, new Entry(null, null, null, perItem.get(i)));
        }
        return new Inline("sq$f" + inlined.size(), group, body);
    }

    /** A group-level for loop: its variables must start and step the same in every work-item. */
    private void loopVariables(ForLoopTree f) {
        for (StatementTree init : f.getInitializer()) {
            if (!(init instanceof VariableTree v)) throw new Fallback("a loop with a barrier whose initializer is not a declaration");
            Decl d = decls.get(v);
            d.kind = DeclKind.LOOP;
            if (v.getInitializer() == null) throw new Fallback("loop variable " + d.name + " of a loop with a barrier has no initial value");
        }
        Set<Decl> stepped = new HashSet<>();
        for (ExpressionStatementTree u : f.getUpdate()) {
            ExpressionTree e = u.getExpression();
            ExpressionTree target = switch (e) {
                case UnaryTree un -> un.getExpression();
                case CompoundAssignmentTree ca when uniform(ca.getExpression()) -> ca.getVariable();
                case AssignmentTree a when uniform(a.getExpression()) -> a.getVariable();
                default -> null;
            };
            Decl d = target != null && LoopNest.strip(target) instanceof IdentifierTree id ? refs.get(id) : null;
            if (d == null || d.kind != DeclKind.LOOP) throw new Fallback("the update `" + e + "` of a loop with a barrier is not the same in every work-item");
            stepped.add(d);
        }
        // the loop's variables may change only in its update
        List<Decl> vars = new ArrayList<>();
        for (StatementTree init : f.getInitializer()) vars.add(decls.get((VariableTree) init));
        for (Decl d : vars) {
            if (d.assigned && !stepped.contains(d) || assignedIn(f.getStatement(), d)) {
                throw new Fallback("loop variable " + d.name + " of a loop with a barrier changes inside the loop body");
            }
            uniformLoopVars.add(d);
        }
    }

    private boolean assignedIn(Tree t, Decl d) {
        boolean[] hit = {false};
        new TreeScanner<Void, Void>() {
            private void target(ExpressionTree e) {
                if (LoopNest.strip(e) instanceof IdentifierTree id && refs.get(id) == d) hit[0] = true;
            }

            @Override
            public Void visitAssignment(AssignmentTree a, Void v) {
                target(a.getVariable());
                return super.visitAssignment(a, v);
            }

            @Override
            public Void visitCompoundAssignment(CompoundAssignmentTree a, Void v) {
                target(a.getVariable());
                return super.visitCompoundAssignment(a, v);
            }

            @Override
            public Void visitUnary(UnaryTree u, Void v) {
                if (u.getKind().name().contains("CREMENT")) target(u.getExpression());
                return super.visitUnary(u, v);
            }
        }.scan(t, null);
        return hit[0];
    }

    /** Returns and jumps inside regions must stay inside them; {@code return} only in the kernel's last region. */
    private void check(Item it, boolean lastTopLevel) {
        switch (it) {
            case Region r -> {
                for (Entry e : r.entries) {
                    if (e.stmt != null) checkJumps(e.stmt, lastTopLevel);
                }
            }
            case Structure s -> {
                for (List<Item> b : s.bodies) for (Item x : b) check(x, false);
            }
            case Inline in -> {
                for (Item x : in.body) check(x, x == in.body.getLast());
            }
            default -> { }
        }
    }

    private void checkJumps(StatementTree s, boolean lastRegion) {
        new TreeScanner<Void, Integer>() {
            int loops, switches;

            private Void loop(Tree t, Integer v, Runnable r) {
                loops++;
                r.run();
                loops--;
                return null;
            }

            @Override
            public Void visitForLoop(ForLoopTree f, Integer v) {
                return loop(f, v, () -> super.visitForLoop(f, v));
            }

            @Override
            public Void visitWhileLoop(WhileLoopTree w, Integer v) {
                return loop(w, v, () -> super.visitWhileLoop(w, v));
            }

            @Override
            public Void visitDoWhileLoop(DoWhileLoopTree d, Integer v) {
                return loop(d, v, () -> super.visitDoWhileLoop(d, v));
            }

            @Override
            public Void visitSwitch(SwitchTree sw, Integer v) {
                switches++;
                super.visitSwitch(sw, v);
                switches--;
                return null;
            }

            @Override
            public Void visitBreak(BreakTree b, Integer v) {
                if (loops + switches == 0) throw new Fallback("a break leaves a loop that contains a barrier");
                return null;
            }

            @Override
            public Void visitContinue(ContinueTree c, Integer v) {
                if (loops == 0) throw new Fallback("a continue skips a barrier of its loop");
                return null;
            }

            @Override
            public Void visitReturn(ReturnTree r, Integer v) {
                if (!lastRegion) throw new Fallback("it returns before a barrier or sub-group operation (`" + r + "`)");
                return null;
            }
        }.scan(s, 0);
    }

    // ---- where each local is used: per work-item storage for those used across a collective point ----

    private void sites(List<Item> items) {
        for (Item it : items) {
            switch (it) {
                case Region r -> {
                    for (Entry e : r.entries) {
                        if (e.capture != null) {
                            for (ExpressionTree a : e.capture.call.getArguments()) site(a, r.id, null);
                        } else if (e.bound != null) {
                            e.bound.param.home = r.id;
                            site(e.bound.arg, r.id, null);
                        } else {
                            if (e.stmt instanceof VariableTree v) decls.get(v).home = r.id;
                            site(e.stmt, r.id, e.op == null ? null : e.op.call);
                        }
                    }
                }
                case Structure s -> {
                    switch (s.stmt) {
                        case IfTree i -> site(i.getCondition(), GROUP, null);
                        case WhileLoopTree w -> site(w.getCondition(), GROUP, null);
                        case DoWhileLoopTree d -> site(d.getCondition(), GROUP, null);
                        case ForLoopTree f -> {
                            for (StatementTree init : f.getInitializer()) site(((VariableTree) init).getInitializer(), GROUP, null);
                            site(f.getCondition(), GROUP, null);
                            for (ExpressionStatementTree u : f.getUpdate()) site(u, GROUP, null);
                        }
                        default -> { }
                    }
                    for (List<Item> b : s.bodies) sites(b);
                }
                case EarlyReturn e -> site(e.stmt.getCondition(), GROUP, null);
                case GroupDecl g -> site(g.decl.getInitializer(), GROUP, null);
                case Inline in -> {
                    for (Binding bd : in.groupBindings) site(bd.arg, GROUP, null);
                    sites(in.body);
                }
                case Op o -> { }
            }
        }
    }

    private void site(Tree t, int site, Tree skip) {
        if (t == null) return;
        new TreeScanner<Void, Void>() {
            @Override
            public Void scan(Tree tree, Void v) {
                return tree == skip ? null : super.scan(tree, v);
            }

            @Override
            public Void visitIdentifier(IdentifierTree id, Void v) {
                Decl d = refs.get(id);
                if (d != null) d.sites.add(site);
                return null;
            }
        }.scan(t, null);
    }

    private void classify() {
        int k = 0;
        for (Decl d : all) {
            if (d.kind == DeclKind.SEQUENCE && (d.sites.size() > 1 || !d.sites.isEmpty() && !d.sites.contains(d.home))) {
                if (d.type == null) throw new Fallback("the type of " + d.name + " (declared with var) is not evident from the source");
                d.replicated = true;
                d.storage = "sq$v" + (k++) + "_" + d.name;
            }
        }
    }

    // ---- uniformity: values every work-item of a group computes alike ----

    private boolean uniform(ExpressionTree e) {
        if (e == null) return true;
        return switch (e) {
            case LiteralTree l -> true;
            case ParenthesizedTree p -> uniform(p.getExpression());
            case TypeCastTree c -> uniform(c.getExpression());
            case UnaryTree u -> !u.getKind().name().contains("CREMENT") && uniform(u.getExpression());
            case BinaryTree b -> uniform(b.getLeftOperand()) && uniform(b.getRightOperand());
            case ConditionalExpressionTree c -> uniform(c.getCondition()) && uniform(c.getTrueExpression()) && uniform(c.getFalseExpression());
            case IdentifierTree id -> {
                Decl d = refs.get(id);
                if (d == null) yield true; // a constant or member of the owner
                yield switch (d.kind) {
                    case PARAM -> true;
                    case CONTEXT -> false;
                    case LOOP -> uniformLoopVars.contains(d);
                    case LOCAL_ARRAY, BOUND -> true;
                    default -> uniformLocal(d);
                };
            }
            case MemberSelectTree ms -> isContext(ms.getExpression())
                    ? ms.getIdentifier().toString().matches("groupId[xyz]|globalGroupSize[XYZ]|localGroupSize[XYZ]")
                    : uniform(ms.getExpression());
            case ArrayAccessTree a -> LoopNest.strip(a.getExpression()) instanceof IdentifierTree id && refs.get(id) != null
                    && refs.get(id).kind == DeclKind.LOCAL_ARRAY && uniform(a.getIndex());
            case MethodInvocationTree mi -> {
                String c = contextCall(mi);
                if (c != null) yield c.equals("subgroupSize");
                for (ExpressionTree a : mi.getArguments()) if (!uniform(a)) yield false;
                yield switch (mi.getMethodSelect()) {
                    case MemberSelectTree ms when ms.getIdentifier().contentEquals("get") -> uniform(ms.getExpression());
                    case MemberSelectTree ms -> LoopNest.strip(ms.getExpression()) instanceof IdentifierTree q && refs.get(q) == null;
                    default -> true; // a device function of uniform arguments
                };
            }
            default -> false;
        };
    }

    private final Set<Decl> visiting = new HashSet<>();

    /** A local assigned once, where declared, from a uniform value. */
    private boolean uniformLocal(Decl d) {
        if (uniformLocals.contains(d)) return true;
        if (d.assigned || d.tree == null || d.tree.getInitializer() == null || d.type == null || d.type.endsWith("]")) return false;
        if (!visiting.add(d)) return false;
        boolean u = uniform(d.tree.getInitializer());
        visiting.remove(d);
        if (u) uniformLocals.add(d);
        return u;
    }

    // ---- types, from declarations (parse trees carry none) ----

    private String typeOf(ExpressionTree e) {
        return switch (e) {
            case LiteralTree l -> switch (l.getValue()) {
                case Integer i -> "int";
                case Long x -> "long";
                case Float f -> "float";
                case Double d -> "double";
                case Boolean b -> "boolean";
                case null, default -> null;
            };
            case ParenthesizedTree p -> typeOf(p.getExpression());
            case TypeCastTree c -> c.getType().toString();
            case IdentifierTree id -> {
                Decl d = refs.get(id);
                if (d != null) yield d.kind == DeclKind.PARAM && d.type.endsWith("Array") ? null : d.type;
                yield memberType(id.getName().toString());
            }
            case ArrayAccessTree a -> {
                String t = typeOf(a.getExpression());
                yield t != null && t.endsWith("[]") ? t.substring(0, t.length() - 2) : null;
            }
            case UnaryTree u -> switch (u.getKind()) {
                case LOGICAL_COMPLEMENT -> "boolean";
                default -> promote(typeOf(u.getExpression()), "int");
            };
            case BinaryTree b -> switch (b.getKind()) {
                case LESS_THAN, GREATER_THAN, LESS_THAN_EQUAL, GREATER_THAN_EQUAL, EQUAL_TO, NOT_EQUAL_TO, CONDITIONAL_AND, CONDITIONAL_OR -> "boolean";
                case LEFT_SHIFT, RIGHT_SHIFT, UNSIGNED_RIGHT_SHIFT -> promote(typeOf(b.getLeftOperand()), "int");
                default -> {
                    String l = typeOf(b.getLeftOperand()), r = typeOf(b.getRightOperand());
                    yield "boolean".equals(l) && "boolean".equals(r) ? "boolean" : promote(l, r);
                }
            };
            case ConditionalExpressionTree c -> {
                String t = typeOf(c.getTrueExpression()), f = typeOf(c.getFalseExpression());
                yield t != null && t.equals(f) ? t : promote(t, f);
            }
            case AssignmentTree a -> typeOf(a.getVariable());
            case CompoundAssignmentTree a -> typeOf(a.getVariable());
            case MemberSelectTree ms -> {
                if (isContext(ms.getExpression())) yield "int";
                String q = LoopNest.strip(ms.getExpression()).toString(), n = ms.getIdentifier().toString();
                yield switch (q) {
                    case "Math" -> "double";
                    case "Integer" -> "int";
                    case "Long" -> "long";
                    case "Float" -> "float";
                    case "Double" -> "double";
                    default -> memberType(n);
                };
            }
            case MethodInvocationTree mi -> methodType(mi);
            default -> null;
        };
    }

    private String methodType(MethodInvocationTree mi) {
        String c = contextCall(mi);
        List<? extends ExpressionTree> args = mi.getArguments();
        if (c != null) {
            return switch (c) {
                case "shuffle", "shuffleDown", "shuffleXor", "subgroupReduceAdd", "atomicAdd", "atomicMax", "atomicMin" ->
                        c.startsWith("atomic") ? typeOf(args.get(2)) : typeOf(args.get(0));
                case "atomicCompareAndSwap" -> typeOf(args.get(2));
                case "volatileLoad" -> {
                    String t = LoopNest.strip(args.get(0)) instanceof IdentifierTree id && refs.get(id) != null ? refs.get(id).type : null;
                    String elem = t == null || !t.endsWith("Array") ? null : t.substring(t.lastIndexOf('.') + 1, t.length() - "Array".length()).toLowerCase(Locale.ROOT);
                    yield RANK.contains(elem) ? elem : null;
                }
                case "localLinearId", "subgroupLocalId", "subgroupSize" -> "int";
                default -> null;
            };
        }
        String name = calledName(mi);
        if (mi.getMethodSelect() instanceof MemberSelectTree ms) {
            String q = LoopNest.strip(ms.getExpression()).toString();
            if (name.equals("get") && LoopNest.strip(ms.getExpression()) instanceof IdentifierTree id && refs.get(id) != null) {
                String t = refs.get(id).type;
                String elem = t == null || !t.endsWith("Array") ? null : t.substring(t.lastIndexOf('.') + 1, t.length() - "Array".length()).toLowerCase(Locale.ROOT);
                return RANK.contains(elem) ? elem : null;
            }
            if (name.equals("getSize")) return "int";
            if (name.equals("getSizeLong")) return "long";
            switch (q) {
                case "Math", "java.lang.Math" -> {
                    return switch (name) {
                        case "abs", "min", "max", "signum", "copySign" -> args.size() == 1 ? promote(typeOf(args.get(0)), "int")
                                : promote(typeOf(args.get(0)), typeOf(args.get(1)));
                        case "round" -> "float".equals(typeOf(args.get(0))) ? "int" : "long";
                        case "multiplyHigh", "unsignedMultiplyHigh" -> "long";
                        default -> "double";
                    };
                }
                case "KernelMath" -> {
                    return "float";
                }
                case "Integer" -> {
                    return "int";
                }
                case "Long" -> {
                    return name.equals("bitCount") || name.startsWith("numberOf") ? "int" : "long";
                }
                case "Float" -> {
                    return name.equals("floatToRawIntBits") ? "int" : "float";
                }
                case "Double" -> {
                    return name.equals("doubleToRawLongBits") ? "long" : "double";
                }
                default -> {
                }
            }
        }
        ExecutableElement fn = devFns.get(name);
        return fn != null && fn.getReturnType().getKind().isPrimitive() ? fn.getReturnType().toString() : null;
    }

    private String memberType(String n) {
        for (Element t = owner; t instanceof TypeElement te; t = te.getEnclosingElement()) {
            for (Element m : te.getEnclosedElements()) {
                if (m instanceof VariableElement v && v.getSimpleName().contentEquals(n)) return v.asType().toString();
            }
        }
        return null;
    }

    private static final List<String> RANK = List.of("byte", "short", "char", "int", "long", "float", "double");

    private static String promote(String a, String b) {
        if (a == null || b == null || !RANK.contains(a) || !RANK.contains(b)) return null;
        int r = Math.max(Math.max(RANK.indexOf(a), RANK.indexOf(b)), RANK.indexOf("int"));
        return RANK.get(r);
    }

    // ---- printing ----

    /** The runner's ids as Java expressions: work-item 0's at group level, the loop's in a region. */
    private String wi() {
        return groupMode ? "0" : "sq$wi";
    }

    private String ids() {
        return groupMode ? "0, 0, 0" : "sq$lx, sq$ly, sq$lz";
    }

    private String print(ExpressionTree e) {
        switch (e) {
            case IdentifierTree id -> {
                Decl d = refs.get(id);
                if (d == null) return null;
                if (d.kind == DeclKind.CONTEXT) {
                    usesContextObject = true;
                    return "sq$c.at(" + ids() + ")";
                }
                return d.replicated && !promoted.contains(d) ? d.storage + "[" + wi() + "]" : d.printed;
            }
            case MemberSelectTree ms when isContext(ms.getExpression()) -> {
                String n = ms.getIdentifier().toString();
                char axis = Character.toLowerCase(n.charAt(n.length() - 1));
                if (n.startsWith("localId")) return groupMode ? "0" : "sq$l" + axis;
                if (n.startsWith("globalId")) return groupMode ? "sq$gb" + axis : "(sq$gb" + axis + " + sq$l" + axis + ")";
                if (n.startsWith("groupId")) return "sq$g" + axis;
                if (n.startsWith("localGroupSize")) return "sq$ls" + axis;
                if (n.startsWith("globalGroupSize")) return "sq$gs" + axis;
                usesContextObject = true;
                return "sq$c.at(" + ids() + ")." + n;
            }
            case MethodInvocationTree mi when contextCall(mi) != null -> {
                Op op = opsByCall.get(mi);
                if (op != null) return "sq$r" + op.id + "[" + wi() + "]";
                String n = contextCall(mi);
                String args = String.join(", ", mi.getArguments().stream().map(jp::top).toList());
                switch (n) {
                    case "localLinearId" -> {
                        return wi();
                    }
                    case "subgroupLocalId" -> {
                        return "(" + wi() + " & 31)";
                    }
                    case "subgroupSize" -> {
                        return "sq$sgs";
                    }
                    default -> {
                    }
                }
                if (n.startsWith("allocate") && n.endsWith("LocalArray")) {
                    return "new " + n.substring("allocate".length(), n.length() - "LocalArray".length()).toLowerCase(Locale.ROOT) + "[" + args + "]";
                }
                if (BARRIERS.contains(n) || SUBGROUP_OPS.contains(n)) throw new Fallback(n + " where the runner cannot split");
                usesContextObject = true;
                return (CONTEXT_CALLS_WITHOUT_IDS.contains(n) ? "sq$c." : "sq$c.at(" + ids() + ").") + n + "(" + args + ")";
            }
            default -> {
                return null;
            }
        }
    }

    private static String arrayOf(String type, String length) {
        int dims = type.indexOf('[');
        return dims < 0 ? "new " + type + "[" + length + "]" : "new " + type.substring(0, dims) + "[" + length + "]" + type.substring(dims);
    }

    /**
     * The runner: a static method of the generated class running work-groups {@code [sq$from, sq$to)}.
     *
     * @param unpack the parameters' declarations from {@code sq$args}, the context's excluded
     */
    String method(String unpack) {
        jp.override(this::print);
        jp.declName(v -> decls.containsKey(v) ? decls.get(v).printed : v.getName().toString());
        StringBuilder b = new StringBuilder();
        String ind = "            ";
        StringBuilder groupBody = new StringBuilder();
        items(body, groupBody, ind);
        b.append("    private static void sq$groups_").append(kernelName)
                .append("(Object[] sq$args, dev.squall.tasks.api.spi.WorkGroupGrid sq$grid, long sq$from, long sq$to) {\n").append(unpack);
        b.append("""
                        final int sq$lsx = sq$grid.localX, sq$lsy = sq$grid.localY, sq$lsz = sq$grid.localZ;
                        final int sq$gsx = sq$grid.globalX, sq$gsy = sq$grid.globalY, sq$gsz = sq$grid.globalZ;
                        final int sq$n = sq$grid.groupSize, sq$sgs = sq$grid.subgroupSize;
                        final dev.squall.tasks.api.spi.WorkItemContext sq$c = new dev.squall.tasks.api.spi.WorkItemContext(sq$grid);
                """);
        for (Decl d : all) {
            if (d.replicated) b.append("        final ").append(d.type).append("[] ").append(d.storage).append(" = ").append(arrayOf(d.type, "sq$n")).append(";\n");
        }
        List<Op> opList = new ArrayList<>(opsByCall.values());
        opList.sort(Comparator.comparingInt(Op::id));
        for (Op op : opList) {
            for (int i = 0; i < op.argTypes.size(); i++) {
                String t = op.argTypes.get(i);
                b.append("        final ").append(t).append("[] sq$a").append(op.id).append('_').append(i).append(" = ").append(arrayOf(t, "sq$n")).append(";\n");
            }
            if (op.resultType() != null) {
                b.append("        final ").append(op.resultType()).append("[] sq$r").append(op.id).append(" = ").append(arrayOf(op.resultType(), "sq$n")).append(";\n");
            }
        }
        b.append("        sq$groups:\n        for (long sq$g = sq$from; sq$g < sq$to; sq$g++) {\n");
        b.append("""
                            final int sq$gx = sq$grid.groupX(sq$g), sq$gy = sq$grid.groupY(sq$g), sq$gz = sq$grid.groupZ(sq$g);
                            final int sq$gbx = sq$gx * sq$lsx, sq$gby = sq$gy * sq$lsy, sq$gbz = sq$gz * sq$lsz;
                """);
        if (usesContextObject) b.append(ind).append("sq$c.group(sq$gx, sq$gy, sq$gz);\n");
        b.append(groupBody);
        b.append("        }\n    }\n\n");
        return b.toString();
    }

    private void items(List<Item> items, StringBuilder out, String ind) {
        for (Item it : items) {
            switch (it) {
                case GroupDecl g -> {
                    groupMode = true;
                    out.append(ind).append(jp.varDecl(g.decl)).append(";\n");
                }
                case EarlyReturn e -> {
                    groupMode = true;
                    out.append(ind).append("if (").append(jp.top(e.stmt.getCondition())).append(") ").append(exit).append(";\n");
                }
                case Region r -> region(r, out, ind);
                case Op op -> {
                    out.append(ind).append("dev.squall.tasks.api.spi.WorkGroupOps.").append(op.name).append('(');
                    for (int i = 0; i < op.argTypes.size(); i++) out.append("sq$a").append(op.id).append('_').append(i).append(", ");
                    if (op.resultType() != null) out.append("sq$r").append(op.id).append(", ");
                    out.append("sq$n);\n");
                }
                case Structure s -> structure(s, out, ind);
                case Inline in -> {
                    out.append(ind).append(in.label).append(": {\n");
                    for (Binding bd : in.groupBindings) {
                        groupMode = true;
                        out.append(ind).append("    final ").append(bd.param.type).append(' ').append(bd.param.printed).append(" = ").append(jp.top(bd.arg)).append(";\n");
                    }
                    String saved = exit;
                    exit = "break " + in.label;
                    items(in.body, out, ind + "    ");
                    exit = saved;
                    out.append(ind).append("}\n");
                }
            }
        }
    }

    /** Work-item loops: z, y, x, with {@code sq$wi} the linear local id. */
    private void itemLoop(StringBuilder out, String ind, java.util.function.Consumer<String> body) {
        boolean saved = groupMode;
        groupMode = false;
        out.append(ind).append("for (int sq$lz = 0; sq$lz < sq$lsz; sq$lz++) {\n");
        out.append(ind).append("    for (int sq$ly = 0; sq$ly < sq$lsy; sq$ly++) {\n");
        out.append(ind).append("        final int sq$row = (sq$lz * sq$lsy + sq$ly) * sq$lsx;\n");
        out.append(ind).append("        sq$items:\n");
        out.append(ind).append("        for (int sq$lx = 0; sq$lx < sq$lsx; sq$lx++) {\n");
        out.append(ind).append("            final int sq$wi = sq$row + sq$lx;\n");
        body.accept(ind + "            ");
        out.append(ind).append("        }\n").append(ind).append("    }\n").append(ind).append("}\n");
        groupMode = saved;
    }

    /** Per-work-item locals held in a Java local for the current region: loaded at its start, stored back at its end. */
    private final Set<Decl> promoted = new HashSet<>();

    private void region(Region r, StringBuilder out, String ind) {
        List<Decl> used = new ArrayList<>();
        for (Decl d : all) {
            if (d.replicated && d.sites.contains(r.id) && (d.home != r.id || d.tree != null && d.tree.getInitializer() != null)) used.add(d);
        }
        itemLoop(out, ind, in -> {
            // a local the JIT can keep in a register instead of the per-work-item array
            for (Decl d : used) {
                out.append(in).append(d.type).append(' ').append(d.printed);
                if (d.home != r.id) out.append(" = ").append(d.storage).append("[sq$wi]");
                out.append(";\n");
            }
            promoted.addAll(used);
            for (Entry e : r.entries) {
                if (e.bound != null) {
                    Decl d = e.bound.param;
                    out.append(in).append(d.replicated ? (promoted.contains(d) ? d.printed : d.storage + "[sq$wi]") : d.type + " " + d.printed).append(" = ").append(jp.top(e.bound.arg)).append(";\n");
                    continue;
                }
                if (e.capture != null) {
                    List<? extends ExpressionTree> args = e.capture.call.getArguments();
                    for (int i = 0; i < args.size(); i++) {
                        out.append(in).append("sq$a").append(e.capture.id).append('_').append(i).append("[sq$wi] = ").append(jp.top(args.get(i))).append(";\n");
                    }
                    continue;
                }
                statement(e.stmt, out, in);
            }
            promoted.clear();
            for (Decl d : used) out.append(in).append(d.storage).append("[sq$wi] = ").append(d.printed).append(";\n");
        });
    }

    private void statement(StatementTree s, StringBuilder out, String ind) {
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitReturn(ReturnTree r, Void v) {
                jp.replace(r, (sb, i) -> sb.append(i).append("continue sq$items;\n"));
                return null;
            }
        }.scan(s, null);
        if (s instanceof VariableTree v && decls.get(v).replicated) {
            Decl d = decls.get(v);
            if (v.getInitializer() == null) return;
            String init = v.getInitializer() instanceof NewArrayTree na && na.getType() == null ? "new " + d.type + " " + jp.expr(na).strip() : jp.top(v.getInitializer());
            out.append(ind).append(promoted.contains(d) ? d.printed : d.storage + "[sq$wi]").append(" = ").append(init).append(";\n");
            return;
        }
        jp.stmt(s, out, ind);
    }

    /** Work-item 0's value of a group-level condition; with checking on, every work-item's must agree. */
    private String condition(ExpressionTree c, StringBuilder out, String ind) {
        String v = "sq$c" + (conds++);
        groupMode = true;
        out.append(ind).append("final boolean ").append(v).append(" = ").append(c == null ? "true" : jp.top(c)).append(";\n");
        if (c != null && !uniform(c)) {
            out.append(ind).append("if (SQ$CHECK_UNIFORM) {\n");
            itemLoop(out, ind + "    ", in -> out.append(in).append("if ((").append(jp.top(c)).append(") != ").append(v)
                    .append(") throw sq$divergent(\"").append(kernelName).append("\", \"").append(escape(c.toString())).append("\", sq$wi);\n"));
            out.append(ind).append("}\n");
        }
        groupMode = true;
        return v;
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
    }

    private void structure(Structure s, StringBuilder out, String ind) {
        String in = ind + "    ";
        groupMode = true;
        switch (s.stmt) {
            case BlockTree b -> {
                out.append(ind).append("{\n");
                items(s.bodies.get(0), out, in);
                out.append(ind).append("}\n");
            }
            case IfTree i -> {
                out.append(ind).append("{\n");
                String c = condition(i.getCondition(), out, in);
                out.append(in).append("if (").append(c).append(") {\n");
                items(s.bodies.get(0), out, in + "    ");
                out.append(in).append("}");
                if (s.bodies.size() > 1) {
                    out.append(" else {\n");
                    items(s.bodies.get(1), out, in + "    ");
                    out.append(in).append("}");
                }
                out.append("\n").append(ind).append("}\n");
            }
            case ForLoopTree f -> {
                out.append(ind).append("{\n");
                for (StatementTree init : f.getInitializer()) {
                    groupMode = true;
                    VariableTree v = (VariableTree) init;
                    out.append(in).append(decls.get(v).type).append(' ').append(decls.get(v).printed).append(" = ").append(jp.top(v.getInitializer())).append(";\n");
                    if (!uniform(v.getInitializer())) {
                        // taken from work-item 0, as the loop's condition; checked against every work-item's on request
                        out.append(in).append("if (SQ$CHECK_UNIFORM) {\n");
                        itemLoop(out, in + "    ", i2 -> out.append(i2).append("if ((").append(jp.top(v.getInitializer())).append(") != ").append(decls.get(v).printed)
                                .append(") throw sq$divergent(\"").append(kernelName).append("\", \"").append(escape(v.toString())).append("\", sq$wi);\n"));
                        out.append(in).append("}\n");
                        groupMode = true;
                    }
                }
                groupMode = true;
                List<String> upd = new ArrayList<>();
                for (ExpressionStatementTree u : f.getUpdate()) upd.add(jp.top(u.getExpression()));
                out.append(in).append("for (;; ").append(String.join(", ", upd)).append(") {\n");
                String c = condition(f.getCondition(), out, in + "    ");
                out.append(in).append("    if (!").append(c).append(") break;\n");
                items(s.bodies.get(0), out, in + "    ");
                out.append(in).append("}\n").append(ind).append("}\n");
            }
            case WhileLoopTree w -> {
                out.append(ind).append("while (true) {\n");
                String c = condition(w.getCondition(), out, in);
                out.append(in).append("if (!").append(c).append(") break;\n");
                items(s.bodies.get(0), out, in);
                out.append(ind).append("}\n");
            }
            case DoWhileLoopTree d -> {
                out.append(ind).append("while (true) {\n");
                items(s.bodies.get(0), out, in);
                String c = condition(d.getCondition(), out, in);
                out.append(in).append("if (!").append(c).append(") break;\n");
                out.append(ind).append("}\n");
            }
            default -> throw new Fallback("a barrier inside a " + s.stmt.getKind());
        }
    }
}
