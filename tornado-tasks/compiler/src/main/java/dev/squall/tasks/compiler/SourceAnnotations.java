package dev.squall.tasks.compiler;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.util.TreeScanner;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which annotation class an annotation written in one compilation unit names, from the unit's package and imports.
 * Annotations on local variables ({@code @Parallel}, {@code @Unroll}) and on methods of local classes have no
 * elements while javac runs annotation processors, so they are resolved here as javac would: a qualified name
 * as written, or a simple name that a single-type import, an on-demand import or the unit's own package brings in,
 * unless a type of that name declared in the unit shadows it.
 */
final class SourceAnnotations {
    private final String pkg;
    /** Single-type imports: simple name to qualified name. */
    private final Map<String, String> single = new HashMap<>();
    /** Packages imported on demand. */
    private final Set<String> onDemand = new HashSet<>();
    /** Simple names of the types the unit declares (at any depth): they shadow imports of the same name. */
    private final Set<String> declared = new HashSet<>();

    private SourceAnnotations(CompilationUnitTree cu) {
        pkg = cu.getPackageName() == null ? "" : cu.getPackageName().toString();
        for (ImportTree i : cu.getImports()) {
            if (i.isStatic() || !(i.getQualifiedIdentifier() instanceof MemberSelectTree ms)) continue;
            String name = ms.getIdentifier().toString();
            if (name.equals("*")) onDemand.add(ms.getExpression().toString());
            else single.put(name, ms.toString());
        }
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitClass(ClassTree c, Void p) {
                declared.add(c.getSimpleName().toString());
                return super.visitClass(c, p);
            }
        }.scan(cu, null);
    }

    static SourceAnnotations of(CompilationUnitTree cu) {
        return new SourceAnnotations(cu);
    }

    /** Whether {@code a} is an annotation of the class named {@code type} ({@link ApiNames}). */
    boolean is(AnnotationTree a, String type) {
        int dot = type.lastIndexOf('.');
        String simple = type.substring(dot + 1), typePkg = type.substring(0, Math.max(dot, 0));
        String written = a.getAnnotationType().toString();
        if (written.equals(type)) return true;
        if (!written.equals(simple) || declared.contains(written)) return false;
        String imported = single.get(written);
        if (imported != null) return imported.equals(type);
        return pkg.equals(typePkg) || onDemand.contains(typePkg);
    }

    /** The annotation of the class named {@code type} among {@code modifiers}, or null. */
    AnnotationTree find(ModifiersTree modifiers, String type) {
        for (AnnotationTree a : modifiers.getAnnotations()) if (is(a, type)) return a;
        return null;
    }
}
