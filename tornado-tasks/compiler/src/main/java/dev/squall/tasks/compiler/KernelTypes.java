package dev.squall.tasks.compiler;

import dev.squall.tasks.api.ByteArray;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.ShortArray;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import java.lang.annotation.Annotation;

/**
 * What a type or an annotation of kernel code is, tested against the API's classes by qualified name:
 * Squall's off-heap arrays, {@link KernelContext}, and the API annotations on elements ({@code @Kernel},
 * {@code @ReadOnly}, ...). Annotations inside method bodies, which have no elements before javac attributes
 * them, are resolved by {@link SourceAnnotations}.
 */
final class KernelTypes {
    private KernelTypes() {
    }

    /** The Java element type ("int", "double", ...) of a Squall off-heap array type, or null for any other type. */
    static String arrayElement(TypeMirror t) {
        if (!(t instanceof DeclaredType dt)) return null;
        String n = ((TypeElement) dt.asElement()).getQualifiedName().toString();
        if (n.equals(IntArray.class.getCanonicalName())) return "int";
        if (n.equals(LongArray.class.getCanonicalName())) return "long";
        if (n.equals(FloatArray.class.getCanonicalName())) return "float";
        if (n.equals(DoubleArray.class.getCanonicalName())) return "double";
        if (n.equals(ShortArray.class.getCanonicalName())) return "short";
        if (n.equals(ByteArray.class.getCanonicalName())) return "byte";
        return null;
    }

    static boolean isContext(TypeMirror t) {
        return t instanceof DeclaredType dt && is((TypeElement) dt.asElement(), KernelContext.class);
    }

    /** Whether {@code type} is the class {@code c}. */
    static boolean is(TypeElement type, Class<?> c) {
        return type.getQualifiedName().contentEquals(c.getCanonicalName());
    }

    static TypeKind kindOfName(String javaPrimitive) {
        return switch (javaPrimitive) {
            case "int" -> TypeKind.INT;
            case "long" -> TypeKind.LONG;
            case "float" -> TypeKind.FLOAT;
            case "double" -> TypeKind.DOUBLE;
            case "short" -> TypeKind.SHORT;
            case "byte" -> TypeKind.BYTE;
            case "boolean" -> TypeKind.BOOLEAN;
            default -> throw new IllegalArgumentException(javaPrimitive);
        };
    }

    static boolean has(Element e, Class<? extends Annotation> annotation) {
        return annotation(e, annotation) != null;
    }

    /** The annotation of class {@code annotation} on {@code e}, or null. */
    static AnnotationMirror annotation(Element e, Class<? extends Annotation> annotation) {
        for (AnnotationMirror a : e.getAnnotationMirrors()) if (is(a, annotation)) return a;
        return null;
    }

    static boolean is(AnnotationMirror a, Class<? extends Annotation> annotation) {
        return is((TypeElement) a.getAnnotationType().asElement(), annotation);
    }
}
