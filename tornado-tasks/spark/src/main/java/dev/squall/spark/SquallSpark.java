package dev.squall.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts Spark contexts for Squall jobs outside {@code spark-submit}: local mode ({@code local[N]}, one JVM) and
 * {@code local-cluster[workers,cores,memory]} (separate executor JVMs on this machine, which honour GPU requests).
 * Executors get {@link SparkJvmOptions#all()}; under {@code local-cluster} they also get this JVM's class path
 * ({@code spark.executor.extraClassPath}) and a Spark home whose {@code jars} folder is empty, since Spark's launcher
 * looks for one: the jars come from the class path instead of a Spark distribution.
 *
 * <pre>{@code
 * try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf("local[4]", "permanent"))) { ... }
 * }</pre>
 */
public final class SquallSpark {
    private SquallSpark() {
    }

    /**
     * The settings every Squall context gets: Squall's executor JVM options (before any the user gave), CUDA's device
     * order; on this machine's masters ({@code local...}) also a loopback driver and no UI. {@code spark.*} system
     * properties (as {@code spark-submit} sets them) are read first, and win where this only fills gaps.
     */
    public static SparkConf conf(String master, String appName) {
        SparkConf c = new SparkConf();
        String userOptions = c.get("spark.executor.extraJavaOptions", "");
        c.setMaster(master).setIfMissing("spark.app.name", appName)
                .set("spark.executor.extraJavaOptions", (SparkJvmOptions.joined() + " " + userOptions).strip())
                // CUDA numbers GPUs as nvidia-smi (and so the discovery script) does
                .setIfMissing("spark.executorEnv.CUDA_DEVICE_ORDER", "PCI_BUS_ID");
        if (master.startsWith("local")) {
            c.setIfMissing("spark.ui.enabled", "false")
                    .setIfMissing("spark.ui.showConsoleProgress", "false")
                    .setIfMissing("spark.driver.host", "127.0.0.1")
                    .setIfMissing("spark.driver.bindAddress", "127.0.0.1");
        }
        if (master.startsWith("local-cluster")) {
            c.set("spark.executor.extraClassPath", absoluteClassPath(System.getProperty("java.class.path")))
                    .set("spark.home", sparkHome().toString())
                    .set("spark.executorEnv.SPARK_HOME", sparkHome().toString())
                    // the launcher asks for the Scala version before it looks for jars
                    .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13");
            // OpenCL and CUDA drivers may replace the JVM's signal handlers: executors chain them (HotSpot signal chaining)
            Path jsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
            if (Files.exists(jsig)) c.set("spark.executorEnv.LD_PRELOAD", jsig.toString());
        }
        return c;
    }

    /** {@code classPath} with every entry made absolute: executors run in their worker's folder, not in this JVM's. */
    static String absoluteClassPath(String classPath) {
        StringBuilder s = new StringBuilder();
        for (String e : classPath.split(File.pathSeparator)) {
            if (e.isEmpty()) continue;
            if (!s.isEmpty()) s.append(File.pathSeparator);
            s.append(Path.of(e).toAbsolutePath().normalize());
        }
        return s.toString();
    }

    /**
     * A context for {@code conf}, after checking that this JVM carries the options Spark needs. Under
     * {@code local-cluster} without a {@code SPARK_HOME} in the environment, the in-process workers take their Spark
     * home from the system properties {@code spark.testing} and {@code spark.test.home} (Spark's own way for
     * local-cluster without a distribution), which this sets.
     */
    public static JavaSparkContext start(SparkConf conf) {
        SparkJvmOptions.checkCurrentJvm();
        if (conf.get("spark.master", "").startsWith("local-cluster") && System.getenv("SPARK_HOME") == null) {
            System.setProperty("spark.testing", "true");
            System.setProperty("spark.test.home", conf.get("spark.home"));
        }
        return new JavaSparkContext(conf);
    }

    /** A Spark home for local-cluster executors: a folder with an empty {@code jars} folder (the jars are on the class path). */
    static synchronized Path sparkHome() {
        Path home = Path.of(System.getProperty("java.io.tmpdir"), "squall-spark-home-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(home.resolve("jars"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the local-cluster Spark home " + home, e);
        }
        home.toFile().deleteOnExit();
        new File(home.toFile(), "jars").deleteOnExit();
        return home;
    }
}
