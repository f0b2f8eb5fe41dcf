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
        if (n.equals(ApiNames.INT_ARRAY)) return "int";
        if (n.equals(ApiNames.LONG_ARRAY)) return "long";
        if (n.equals(ApiNames.FLOAT_ARRAY)) return "float";
        if (n.equals(ApiNames.DOUBLE_ARRAY)) return "double";
        if (n.equals(ApiNames.SHORT_ARRAY)) return "short";
        if (n.equals(ApiNames.BYTE_ARRAY)) return "byte";
        return null;
    }

    static boolean isContext(TypeMirror t) {
        return t instanceof DeclaredType dt && is((TypeElement) dt.asElement(), ApiNames.KERNEL_CONTEXT);
    }

    /** Whether {@code type} is the class named {@code qualifiedName} ({@link ApiNames}). */
    static boolean is(TypeElement type, String qualifiedName) {
        return type.getQualifiedName().contentEquals(qualifiedName);
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

    static boolean has(Element e, String annotation) {
        return annotation(e, annotation) != null;
    }

    /** The annotation named {@code annotation} ({@link ApiNames}) on {@code e}, or null. */
    static AnnotationMirror annotation(Element e, String annotation) {
        for (AnnotationMirror a : e.getAnnotationMirrors()) if (is(a, annotation)) return a;
        return null;
    }

    static boolean is(AnnotationMirror a, String annotation) {
        return is((TypeElement) a.getAnnotationType().asElement(), annotation);
    }
}
