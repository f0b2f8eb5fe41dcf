package dev.squall.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options Spark 4.2 needs on JDK 25, as its own launcher ({@code org.apache.spark.launcher.JavaModuleOptions})
 * gives every driver and executor it starts, plus what Squall needs ({@code --enable-native-access}, a larger thread
 * stack for the JVM backend's kernels). {@code spark-submit} adds Spark's list itself; a JVM started any other way
 * (the {@code squall-spark} script, tests, an IDE) must carry them, and {@link #checkCurrentJvm()} says which are missing.
 *
 * <pre>{@code
 * ProcessBuilder pb = new ProcessBuilder(java); pb.command().addAll(SparkJvmOptions.all()); ...
 * SparkJvmOptions.checkCurrentJvm();   // before new SparkContext(...)
 * }</pre>
 */
public final class SparkJvmOptions {
    /** Packages Spark and its libraries (Netty, Kryo, Hadoop) reach into reflectively: module/package pairs. */
    static final String[] OPENS = {
        "java.base/java.lang", "java.base/java.lang.invoke", "java.base/java.lang.reflect", "java.base/java.io",
        "java.base/java.net", "java.base/java.nio", "java.base/java.util", "java.base/java.util.concurrent",
        "java.base/java.util.concurrent.atomic", "java.base/jdk.internal.ref", "java.base/sun.nio.ch", "java.base/sun.nio.cs",
        "java.base/sun.security.action", "java.base/sun.util.calendar", "java.security.jgss/sun.security.krb5"};

    private SparkJvmOptions() {
    }

    /** Spark's own list (its launcher's, in its order). */
    public static List<String> spark() {
        List<String> o = new ArrayList<>();
        o.add("-XX:+IgnoreUnrecognizedVMOptions");
        o.add("--add-modules=jdk.incubator.vector");
        for (String p : OPENS) o.add("--add-opens=" + p + "=ALL-UNNAMED");
        o.add("-Dio.netty.tryReflectionSetAccessible=true");
        o.add("-Dio.netty.allocator.type=pooled");
        o.add("-Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE");
        o.add("--sun-misc-unsafe-memory-access=allow");
        o.add("--enable-native-access=ALL-UNNAMED");
        return o;
    }

    /** Spark's list and Squall's: the thread stack the JVM backend's kernels need. */
    public static List<String> all() {
        List<String> o = spark();
        o.add("-Xss4m");
        return o;
    }

    /** Prints {@link #joined()}: launch scripts take the options from here. */
    public static void main(String[] args) {
        System.out.println(joined());
    }

    /** {@link #all()} as one string, for {@code spark.executor.extraJavaOptions}. */
    public static String joined() {
        return String.join(" ", all());
    }

    /** The {@code --add-opens} options this JVM lacks (empty when Spark can run here); packages this JDK lacks are skipped. */
    public static List<String> missingInCurrentJvm() {
        List<String> missing = new ArrayList<>();
        Module unnamed = SparkJvmOptions.class.getClassLoader().getUnnamedModule();
        for (String p : OPENS) {
            String module = p.substring(0, p.indexOf('/')), pkg = p.substring(p.indexOf('/') + 1);
            Module m = ModuleLayer.boot().findModule(module).orElse(null);
            if (m != null && m.getPackages().contains(pkg) && !m.isOpen(pkg, unnamed)) missing.add("--add-opens=" + p + "=ALL-UNNAMED");
        }
        return missing;
    }

    /** @throws IllegalStateException naming the missing options when Spark cannot start in this JVM */
    public static void checkCurrentJvm() {
        List<String> missing = missingInCurrentJvm();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("this JVM lacks the options Spark 4.2 needs on JDK " + Runtime.version().feature()
                    + ": " + String.join(" ", missing) + ". Start it through tornado-tasks/spark/scripts/squall-spark or spark-submit, "
                    + "or add SparkJvmOptions.all(): " + joined());
        }
    }
}
