package dev.squall.linalg.cli;

import dev.squall.tasks.runtime.testing.TestDevices;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Runs the commands end to end with --verify --json; their residual checks are the assertion. */
class CommandsTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    private static String run(Object command, String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        try {
            int code = new CommandLine(command).execute(args);
            assertEquals(0, code, "exit code of " + String.join(" ", args) + ": " + buf);
        } finally {
            System.setOut(old);
        }
        return buf.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void choleskyTrinvAndGemmVerify(Device device) {
        String c = run(new CholeskyCommand(), "--n", "157", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(c.contains("\"ok\":true") && c.contains("\"log_likelihood\":"), c);
        String b = run(new CholeskyCommand(), "--n", "33", "--batch", "7", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(b.contains("\"ok\":true") && b.contains("\"kernel\":\"warp-loop\""), b);
        String wl = run(new CholeskyCommand(), "--n", "45", "--batch", "3", "--kernel", "WARP-loop", "--device", device.id(), "--verify", "--json", "--repeat", "2");
        assertTrue(wl.contains("\"ok\":true") && wl.contains("\"kernel\":\"warp-loop\""), wl);
        String g2 = run(new CholeskyCommand(), "--n", "33", "--batch", "3", "--kernel", "group", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(g2.contains("\"ok\":true") && g2.contains("\"kernel\":\"group\""), g2);
        String t = run(new TrinvCommand(), "--n", "99", "--batch", "3", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(t.contains("\"ok\":true") && t.contains("\"kernel\":\"blocks\""), t);
        String tw = run(new TrinvCommand(), "--n", "45", "--batch", "3", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(tw.contains("\"ok\":true") && tw.contains("\"kernel\":\"warp\""), tw);
        String tb = run(new TrinvCommand(), "--n", "17", "--batch", "3", "--kernel", "blocks", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(tb.contains("\"ok\":true") && tb.contains("\"kernel\":\"blocks\""), tb);
        String g = run(new GemmCommand(), "--m", "40", "--n", "17", "--k", "70", "--batch", "5", "--transb", "T", "--precision", "fp32",
                "--device", device.id(), "--verify", "--repeat", "1");
        assertTrue(g.contains("(ok)"), g);
        String[] pipe = {"--m", "150", "--n", "131", "--k", "37", "--batch", "2", "--transb", "T", "--precision", "fp64",
                "--kernel", "pipe-w16-s4", "--device", device.id(), "--verify", "--json", "--repeat", "1"};
        if (dev.squall.linalg.gemm.PipelinedGemmKernelsF64.fits(device)) {
            String gp = run(new GemmCommand(), pipe);
            assertTrue(gp.contains("\"ok\":true") && gp.contains("\"kernel\":\"pipe-w16-s4\""), gp);
        } else {
            GemmCommand gc = new CommandLine(new GemmCommand()).parseArgs(pipe).asCommandLineList().get(0).getCommand();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, gc::call);
            assertTrue(e.getMessage().contains("need 160 KiB of local memory"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void qrAndSvdVerify(Device device) {
        String q = run(new QrCommand(), "--m", "45", "--n", "19", "--batch", "4", "--q", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(q.contains("\"ok\":true"), q);
        String r = run(new QrCommand(), "--m", "30", "--n", "30", "--batch", "3", "--device", device.id(), "--verify", "--repeat", "1");
        assertTrue(r.contains("(ok)"), r);
        String s = run(new SvdCommand(), "--m", "36", "--n", "24", "--batch", "3", "--rel-tol", "1e-6", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(s.contains("\"ok\":true") && s.contains("\"rank_max\":"), s);
    }

    /** --profile prints one JSON line per phase plus the total; --block 128 with n = 300 uses 128-wide outer steps. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void choleskyProfile(Device device) {
        if (device.info().type() == DeviceType.JVM) {
            CholeskyCommand c = new CommandLine(new CholeskyCommand()).parseArgs("--n", "100", "--profile", "--device", "jvm")
                    .asCommandLineList().get(0).getCommand();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::call);
            assertTrue(e.getMessage().contains("--profile"), e.getMessage());
            return;
        }
        String out = run(new CholeskyCommand(), "--n", "300", "--block", "128", "--profile", "--device", device.id(), "--verify", "--json", "--repeat", "1");
        assertTrue(out.contains("\"ok\":true") && out.contains("\"block\":128"), out);
        for (String phase : new String[] {"diagonal-factor", "diagonal-inverse", "panel-solve", "trailing-update", "copy", "total"}) {
            assertTrue(out.contains("\"phase\":\"" + phase + "\""), phase + " missing in " + out);
        }
    }

    /** --lookahead: n = 300 with --block 64 runs five look-ahead steps on two queues; the residual check is the assertion. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void choleskyLookahead(Device device) {
        String out = run(new CholeskyCommand(), "--n", "300", "--block", "64", "--lookahead", "--device", device.id(), "--verify", "--json", "--repeat", "2");
        assertTrue(out.contains("\"ok\":true") && out.contains("\"block\":64") && out.contains("-lookahead\""), out);
        CholeskyCommand c = new CommandLine(new CholeskyCommand()).parseArgs("--n", "33", "--batch", "3", "--lookahead", "--device", device.id())
                .asCommandLineList().get(0).getCommand();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::call);
        assertTrue(e.getMessage().contains("--lookahead"), e.getMessage());
        // the outer steps' GEMMs by a named kernel (n = 331, block 128: updates of depth 128 and 203 or 75 rows), the trailing
        // updates persistent on 3 work-groups; devices without its local memory refuse it with the reason
        String[] deepArgs = {"--n", "331", "--block", "128", "--lookahead", "--rest-groups", "3", "--split-next", "--gemm-kernel", "chunk-w8-d32-s3", "--device", device.id(),
                "--verify", "--json", "--repeat", "1"};
        if (dev.squall.linalg.gemm.PipelinedGemmKernelsF64.fits(device, dev.squall.linalg.gemm.PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
            String deep = run(new CholeskyCommand(), deepArgs);
            assertTrue(deep.contains("\"ok\":true") && deep.contains("\"kernel\":\"blocked-gemm-chunk-w8-d32-s3-lookahead-rest3-split\""), deep);
        } else {
            CholeskyCommand refused = new CommandLine(new CholeskyCommand()).parseArgs(deepArgs).asCommandLineList().get(0).getCommand();
            IllegalArgumentException re = assertThrows(IllegalArgumentException.class, refused::call);
            assertTrue(re.getMessage().contains("need 216 KiB of local memory"), re.getMessage());
        }
        CholeskyCommand noLookahead = new CommandLine(new CholeskyCommand()).parseArgs("--n", "300", "--rest-groups", "8", "--device", device.id())
                .asCommandLineList().get(0).getCommand();
        IllegalArgumentException ne = assertThrows(IllegalArgumentException.class, noLookahead::call);
        assertTrue(ne.getMessage().contains("--rest-groups 8 applies to --lookahead"), ne.getMessage());
        CholeskyCommand bad = new CommandLine(new CholeskyCommand()).parseArgs("--n", "300", "--gemm-kernel", "deep", "--device", device.id())
                .asCommandLineList().get(0).getCommand();
        IllegalArgumentException be = assertThrows(IllegalArgumentException.class, bad::call);
        assertTrue(be.getMessage().contains("--gemm-kernel must be one of auto, tiles, mma,") && be.getMessage().contains("got 'deep'"), be.getMessage());
        CholeskyCommand single = new CommandLine(new CholeskyCommand()).parseArgs("--n", "300", "--gemm-kernel", "mma", "--precision", "fp32", "--device", device.id())
                .asCommandLineList().get(0).getCommand();
        IllegalArgumentException se = assertThrows(IllegalArgumentException.class, single::call);
        assertTrue(se.getMessage().contains("--gemm-kernel mma is fp64 only"), se.getMessage());
    }

    @Test
    void userMatricesFromFiles(@TempDir Path dir) throws Exception {
        // the 3 x 3 SPD matrix [[4,2,0],[2,5,1],[0,1,3]] (lower triangle stored); det = 4 (15 - 1) - 2 (6 - 0) = 44
        Path spd = dir.resolve("spd.mtx");
        Files.writeString(spd, "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 2\n2 2 5\n3 2 1\n3 3 3\n");
        String c = run(new CholeskyCommand(), "--matrix", spd.toString(), "--device", "jvm", "--verify", "--json", "--repeat", "1");
        assertEquals(Math.log(44), dev.squall.cli.JsonOutput.mapper().readTree(c).get("log_det").asDouble(), 1e-12, c);
        // [[1,2],[2,1]] is symmetric but indefinite: the pivot is named, exit 2
        Path indefinite = dir.resolve("indefinite.mtx");
        Files.writeString(indefinite, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n2\n1\n");
        CholeskyCommand bad = new CommandLine(new CholeskyCommand()).parseArgs("--matrix", indefinite.toString(), "--device", "jvm")
                .asCommandLineList().get(0).getCommand();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad::call);
        assertTrue(e.getMessage().startsWith("--matrix " + indefinite + ": ") && e.getMessage().contains("not positive definite"), e.getMessage());
        // trinv of [[2,0],[1,4]]: X = [[1/2,0],[-1/8,1/4]], residual at rounding level
        Path lower = dir.resolve("lower.mtx");
        Files.writeString(lower, "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 2\n2 1 1\n2 2 4\n");
        String t = run(new TrinvCommand(), "--matrix", lower.toString(), "--device", "jvm", "--verify", "--json", "--repeat", "1");
        assertTrue(t.contains("\"ok\":true") && t.contains("\"n\":2"), t);
        TrinvCommand upper = new CommandLine(new TrinvCommand()).parseArgs("--matrix", spd.toString(), "--device", "jvm").asCommandLineList().get(0).getCommand();
        IllegalArgumentException u = assertThrows(IllegalArgumentException.class, upper::call);
        assertTrue(u.getMessage().contains("entry (1, 2) = 2.0 is above the diagonal"), u.getMessage());
    }

    @Test
    void sizesThatOverflowNameTheOptions() {
        TrinvCommand t = new CommandLine(new TrinvCommand()).parseArgs("--n", "2147483647", "--batch", "3").asCommandLineList().get(0).getCommand();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, t::call);
        assertTrue(e.getMessage().startsWith("--batch x --n^2 is too large"), e.getMessage());
        GemmCommand g = new CommandLine(new GemmCommand()).parseArgs("--m", "2147483647").asCommandLineList().get(0).getCommand();
        IllegalArgumentException ge = assertThrows(IllegalArgumentException.class, g::call);
        assertTrue(ge.getMessage().startsWith("--m x --k (A) = 2147483647 x 2147483647"), ge.getMessage());
    }

    @Test
    void badInputIsNamed() {
        CholeskyCommand c = new CommandLine(new CholeskyCommand()).parseArgs("--n", "100", "--batch", "5").asCommandLineList().get(0).getCommand();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::call);
        assertTrue(e.getMessage().contains("--n <= 64"), e.getMessage());
        CommandLine.ParameterException p = assertThrows(CommandLine.ParameterException.class,
                () -> new CommandLine(new TrinvCommand()).parseArgs("--n", "10", "--precision", "fp16"));
        assertTrue(p.getMessage().startsWith("--precision 'fp16': trinv takes fp64 or fp32"), p.getMessage());
        TrinvCommand k = new CommandLine(new TrinvCommand()).parseArgs("--n", "100", "--kernel", "warp").asCommandLineList().get(0).getCommand();
        IllegalArgumentException kw = assertThrows(IllegalArgumentException.class, k::call);
        assertTrue(kw.getMessage().contains("--kernel warp needs --n <= 64, got 100"), kw.getMessage());
        TrinvCommand ks = new CommandLine(new TrinvCommand()).parseArgs("--n", "10", "--kernel", "warp-shuffle").asCommandLineList().get(0).getCommand();
        IllegalArgumentException kn = assertThrows(IllegalArgumentException.class, ks::call);
        assertTrue(kn.getMessage().contains("--kernel must be warp or blocks, got warp-shuffle"), kn.getMessage());
        CholeskyCommand ck = new CommandLine(new CholeskyCommand()).parseArgs("--n", "10", "--batch", "5", "--kernel", "shuffle").asCommandLineList().get(0).getCommand();
        IllegalArgumentException ke = assertThrows(IllegalArgumentException.class, ck::call);
        assertTrue(ke.getMessage().contains("kernel must be warp-loop or group, got shuffle"), ke.getMessage());
        GemmCommand gk = new CommandLine(new GemmCommand()).parseArgs("--m", "10", "--kernel", "pipe-w9-s3").asCommandLineList().get(0).getCommand();
        IllegalArgumentException ge = assertThrows(IllegalArgumentException.class, gk::call);
        assertTrue(ge.getMessage().contains("--kernel must be one of auto, tiles, mma, pipe-w8-s3, pipe-w8-s4, pipe-w16-s3, pipe-w16-s4, pipe-w8-s2, chunk-w8-s3, chunk-w16-s3, chunk-w16-s4, chunk-w16-d32-s3, chunk-w8-d32-s3, got 'pipe-w9-s3'"),
                ge.getMessage());
        SvdCommand s = new CommandLine(new SvdCommand()).parseArgs("--m", "10", "--n", "20").asCommandLineList().get(0).getCommand();
        IllegalArgumentException w = assertThrows(IllegalArgumentException.class, s::call);
        assertTrue(w.getMessage().contains("--m must be >= --n, got 10 x 20"), w.getMessage());
    }

    @Test
    void lookaheadIsTheDefaultForOneLargeMatrixOnAGpuOnly() {
        assertTrue(CholeskyCommand.defaultLookahead(1, 16384, false, dev.squall.tasks.runtime.DeviceType.GPU));
        assertTrue(CholeskyCommand.defaultLookahead(1, 4096, false, dev.squall.tasks.runtime.DeviceType.GPU));
        assertFalse(CholeskyCommand.defaultLookahead(1, 4095, false, dev.squall.tasks.runtime.DeviceType.GPU), "small n: launches bound it");
        assertFalse(CholeskyCommand.defaultLookahead(2, 16384, false, dev.squall.tasks.runtime.DeviceType.GPU), "batched");
        assertFalse(CholeskyCommand.defaultLookahead(1, 16384, true, dev.squall.tasks.runtime.DeviceType.GPU), "--profile times phases serially");
        for (dev.squall.tasks.runtime.DeviceType t : dev.squall.tasks.runtime.DeviceType.values()) {
            if (t != dev.squall.tasks.runtime.DeviceType.GPU) assertFalse(CholeskyCommand.defaultLookahead(1, 16384, false, t), t.toString());
        }
    }
}
