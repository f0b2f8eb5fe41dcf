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
        return tornadoArrayElement(n);
    }

    /** The element type of a TornadoVM off-heap array ({@link TornadoNames}), or null. */
    static String tornadoArrayElement(String qualifiedName) {
        return switch (qualifiedName) {
            case TornadoNames.INT_ARRAY -> "int";
            case TornadoNames.LONG_ARRAY -> "long";
            case TornadoNames.FLOAT_ARRAY -> "float";
            case TornadoNames.DOUBLE_ARRAY -> "double";
            case TornadoNames.SHORT_ARRAY -> "short";
            case TornadoNames.BYTE_ARRAY -> "byte";
            default -> null;
        };
    }

    /** The Squall array class standing for a TornadoVM array type on the JVM (the compatibility layer passes Squall's arrays), or null. */
    static String squallArrayFor(TypeMirror t) {
        if (!(t instanceof DeclaredType dt)) return null;
        String e = tornadoArrayElement(((TypeElement) dt.asElement()).getQualifiedName().toString());
        return e == null ? null : "dev.squall.tasks.api." + Character.toUpperCase(e.charAt(0)) + e.substring(1) + "Array";
    }

    /** Whether {@code t} is a Java array of a primitive other than char and boolean ({@code float[]}): TornadoVM kernels take them. */
    static boolean isPrimitiveJavaArray(TypeMirror t) {
        return t instanceof javax.lang.model.type.ArrayType at && at.getComponentType().getKind().isPrimitive()
                && at.getComponentType().getKind() != TypeKind.CHAR && at.getComponentType().getKind() != TypeKind.BOOLEAN;
    }

    /** The position of the KernelContext parameter of a kernel or device function, or -1. */
    static int contextIndex(javax.lang.model.element.ExecutableElement m) {
        for (int i = 0; i < m.getParameters().size(); i++) if (isContext(m.getParameters().get(i).asType())) return i;
        return -1;
    }

    static boolean isContext(TypeMirror t) {
        return t instanceof DeclaredType dt && (is((TypeElement) dt.asElement(), ApiNames.KERNEL_CONTEXT)
                || is((TypeElement) dt.asElement(), TornadoNames.KERNEL_CONTEXT));
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

    /**
     * Methods made kernels and device functions by TornadoVM {@code task(...)} calls rather than annotations, as
     * "owner#method", for the current compilation (the processor resets it in {@code init}). Kept by name: javac's
     * symbols from the processing rounds are stale once it analyses the classes.
     */
    static final java.util.Set<String> TASK_DEVICE_FUNCTIONS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Whether {@code m} is a device function: {@code @DeviceFunction}, or a method a task's kernel calls. */
    static boolean isDeviceFunction(javax.lang.model.element.ExecutableElement m) {
        return has(m, ApiNames.DEVICE_FUNCTION) || (m.getEnclosingElement() instanceof TypeElement t
                && TASK_DEVICE_FUNCTIONS.contains(t.getQualifiedName() + "#" + m.getSimpleName()));
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
