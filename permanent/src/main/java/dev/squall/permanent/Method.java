package dev.squall.permanent;

import java.util.Locale;

/** How the Gray-code phase runs. */
public enum Method {
    /** Generated hybrid on a GPU/OpenCL device for larger blocks, the JVM for small ones. */
    AUTO,
    /** Dense sweep: JVM threads on {@code jvm}, the generic dense kernel elsewhere. */
    DENSE,
    /**
     * The generic dense kernel with x in the work-group's local memory, on any device (on
     * {@code jvm} the Squall JVM backend runs the kernel): the local-memory baseline.
     */
    DENSE_LOCAL,
    /** Sparse sweep (CSC, degree-sorted columns): JVM threads on {@code jvm}, the generic sparse kernel elsewhere. */
    SPARSE,
    /** Generated kernel, x entirely in registers (PureReg). */
    CODEGEN_REG,
    /** Generated kernel, register/global hybrid (Algorithms 3 and 4). */
    CODEGEN_HYBRID;

    /** The command-line spelling: {@code auto, dense, dense-local, sparse, codegen-reg, codegen-hybrid}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Method parse(String s) {
        for (Method m : values()) if (m.cliName().equals(s.strip().toLowerCase(Locale.ROOT))) return m;
        throw new IllegalArgumentException("unknown method '" + s + "'; use one of auto, dense, dense-local, sparse, codegen-reg, codegen-hybrid");
    }
}
