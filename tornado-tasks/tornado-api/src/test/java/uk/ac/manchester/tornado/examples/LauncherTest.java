package uk.ac.manchester.tornado.examples;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example programs run as TornadoVM users run them, through {@code scripts/tornado} in a fresh JVM, on each device
 * present (chosen with TornadoVM's {@code -Ds0.device=B:D}): each must print a RESULT line that says it ran on that
 * device's backend and matched its plain-Java version (PASS), and exit 0. The launcher's options are checked one by one.
 */
@Tag("source-tree")
class LauncherTest {
    private static final Path SCRIPT = Path.of("../../scripts/tornado").toAbsolutePath().normalize();
    private static final Pattern RESULT = Pattern.compile("RESULT program=(\\S+) size=(\\d+) device=(\\d+:\\d+) backend=(\\S+) repeat=(\\d+) "
            + "tornadoMs=\\S+ javaMs=\\S+ maxError=(\\S+) tolerance=(\\S+) (PASS|FAIL)");

    /** Each program with a small size for the test. */
    static final String[][] PROGRAMS = {
            {"VectorAdd", "10007"}, {"Saxpy", "10007"}, {"MatrixMultiplication", "67"}, {"BlackScholes", "10007"}, {"Sigmoid", "10007"},
            {"ContextVectorAdd", "10007"}, {"Transpose2D", "131"}, {"LocalMemoryReduction", "100003"}, {"Histogram", "100003"},
            {"PrefixSum", "5003"}, {"MultiTaskPipeline", "10007"}, {"SharedDeviceData", "10007"}, {"ReduceSum", "300007"},
            {"ReduceMinMax", "300007"}, {"DotProduct", "300007"}, {"Matrix2DMultiplication", "61"}, {"VectorFloat4Ops", "10007"},
            {"LongSquares", "10007"}, {"NBody", "501"},
    };

    static List<Object[]> runs() {
        List<Object[]> out = new ArrayList<>();
        for (Device d : TestDevices.all()) for (String[] p : PROGRAMS) out.add(new Object[] {d, p[0], p[1]});
        return out;
    }

    record Run(int exit, String output) {
    }

    static Run tornado(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "tornado " + String.join(" ", args) + " did not finish");
        return new Run(p.exitValue(), out);
    }

    private static String bd(Device d) {
        TornadoDevice t = TornadoRuntimeProvider.getTornadoRuntime().of(d);
        return t.getBackendIndex() + ":" + t.getDeviceIndex();
    }

    private static Matcher result(Run r, String what) {
        Matcher m = RESULT.matcher(r.output());
        assertTrue(m.find(), what + " printed no RESULT line (exit " + r.exit() + "):\n" + r.output());
        return m;
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("runs")
    void programRunsThroughTheLauncherAndMatchesJava(Device d, String program, String size) throws Exception {
        String dev = bd(d);
        Run r = tornado("-Ds0.device=" + dev, "-Ds1.device=" + dev, "-cp", "target/test-classes", "uk.ac.manchester.tornado.examples." + program, size);
        Matcher m = result(r, program);
        assertEquals(program, m.group(1));
        assertEquals(size, m.group(2));
        assertEquals(dev, m.group(3), "the device asked for with -Ds0.device");
        assertEquals(d.info().backend(), m.group(4));
        assertEquals("PASS", m.group(8), r.output());
        assertEquals(0, r.exit(), r.output());
    }

    @Test
    void devicesPrintsTheMappingOfEveryDevice() throws Exception {
        Run r = tornado("--devices");
        assertEquals(0, r.exit(), r.output());
        for (Device d : TestDevices.all()) {
            assertTrue(r.output().contains("Tornado device=" + bd(d) + "  ->  squall device " + d.id()), d + " in:\n" + r.output());
        }
    }

    @Test
    void taskDevicePropertyJvmOptionsAndClasspathForms() throws Exception {
        Device last = TestDevices.all().getLast();
        Run r = tornado("--jvm=-Dexamples.repeat=3 -Xmx512m", "-Ds0.t0.device=" + bd(last), "--classpath=target/test-classes",
                "uk.ac.manchester.tornado.examples.VectorAdd", "1001");
        Matcher m = result(r, "VectorAdd");
        assertEquals(bd(last), m.group(3), "-Ds0.t0.device picks the device");
        assertEquals("3", m.group(5), "--jvm passes JVM options");
        assertEquals("PASS", m.group(8));
        Run spaced = tornado("--jvm", "-Dexamples.repeat=2", "--classpath", "target/test-classes", "uk.ac.manchester.tornado.examples.PrefixSum", "99");
        assertEquals("2", result(spaced, "PrefixSum").group(5));
    }

    @Test
    void threadInfoPrintKernelAndDebug() throws Exception {
        Run r = tornado("--threadInfo", "-cp", "target/test-classes", "uk.ac.manchester.tornado.examples.MultiTaskPipeline", "100");
        for (String t : List.of("scale", "square", "add")) assertTrue(r.output().contains("Task info: s0." + t), r.output());
        Run k = tornado("--printKernel", "-cp", "target/test-classes", "uk.ac.manchester.tornado.examples.Saxpy", "100");
        assertTrue(k.output().contains("META-INF/squall/kernels/"), k.output());
        assertTrue(!r.output().contains("META-INF/squall/kernels/"), "--threadInfo alone does not print kernels");
        Run d = tornado("--debug", "-cp", "target/test-classes", "uk.ac.manchester.tornado.examples.Saxpy", "100");
        assertTrue(d.output().contains("Task info: s0.t0") && d.output().contains("META-INF/squall/kernels/"), d.output());
        assertEquals("PASS", result(d, "Saxpy").group(8));
    }

    @Test
    void modularMainClass() throws Exception {
        Run r = tornado("-m", "tornado.api/uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("Number of Tornado backends: "), r.output());
    }

    @Test
    void badInputIsExit2WithTheReason() throws Exception {
        Run unknown = tornado("--frobnicate", "X");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.output().contains("unknown option --frobnicate"), unknown.output());
        Run none = tornado("-cp", "target/test-classes");
        assertEquals(2, none.exit());
        assertTrue(none.output().contains("give a main class"), none.output());
        Run badDevice = tornado("-Ds0.device=9:9", "-cp", "target/test-classes", "uk.ac.manchester.tornado.examples.VectorAdd", "10");
        assertEquals(2, badDevice.exit(), badDevice.output());
        assertTrue(badDevice.output().contains("s0.device=9:9: there are backends 0 to") && badDevice.output().contains("not 9"), badDevice.output());
        assertTrue(!badDevice.output().contains("\tat "), "no stack trace for a device the list lacks:\n" + badDevice.output());
        Run noClass = tornado("-cp", "target/test-classes", "uk.ac.manchester.tornado.examples.NoSuchProgram");
        assertEquals(2, noClass.exit(), noClass.output());
        assertTrue(noClass.output().contains("main class uk.ac.manchester.tornado.examples.NoSuchProgram is not on the class path"), noClass.output());
        assertTrue(Files.isExecutable(SCRIPT) || Files.isReadable(SCRIPT));
    }
}
