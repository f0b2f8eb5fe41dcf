package dev.squall.bench.cli;

import dev.squall.cli.Launcher;
import dev.squall.cli.SquallSubcommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.*;

/** The squall command line is assembled from the subcommands every module announces, nothing else. */
class SquallCommandTest {
    private static final String SERVICE = "META-INF/services/" + SquallSubcommand.class.getName();

    @Test
    void subcommandsComeFromEveryModulesServiceDeclaration() throws IOException {
        Map<String, Set<String>> byModule = new TreeMap<>(); // module name -> provider classes, from its services file
        Enumeration<URL> files = getClass().getClassLoader().getResources(SERVICE);
        while (files.hasMoreElements()) {
            URL file = files.nextElement();
            Set<String> listed = new TreeSet<>();
            try (InputStream in = file.openStream()) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (!line.isBlank() && !line.startsWith("#")) listed.add(line.strip());
                }
            }
            // the module-info.class beside the services file declares the same providers; squall-spark has none (Spark's
            // jars cannot be named modules): there the services file alone announces its command, as the automatic module
            // dev.squall.spark on the module path
            URL descriptor = new URL(file.toString().replace(SERVICE, "module-info.class"));
            if (listed.stream().allMatch(c -> c.startsWith("dev.squall.spark."))) {
                assertThrows(IOException.class, () -> descriptor.openStream().close(), "squall-spark has no module-info");
                byModule.put("dev.squall.spark", listed);
                continue;
            }
            ModuleDescriptor md;
            try (InputStream in = descriptor.openStream()) {
                md = ModuleDescriptor.read(in);
            }
            Set<String> provided = new TreeSet<>();
            for (ModuleDescriptor.Provides p : md.provides()) if (p.service().equals(SquallSubcommand.class.getName())) provided.addAll(p.providers());
            assertEquals(listed, provided, md.name() + ": META-INF/services and module-info.java's provides differ");
            byModule.put(md.name(), listed);
        }
        assertTrue(byModule.keySet().containsAll(List.of("dev.squall.bench", "dev.squall.hmatrix", "dev.squall.linalg", "dev.squall.permanent",
                "dev.squall.sparse", "dev.squall.spark")), "modules announcing commands: " + byModule.keySet());
        Set<String> announced = new TreeSet<>();
        byModule.values().forEach(announced::addAll);
        Set<String> assembled = new TreeSet<>();
        Map<String, String> names = new HashMap<>();
        for (Map.Entry<String, CommandLine> e : SquallCommand.commandLine().getSubcommands().entrySet()) {
            Object command = e.getValue().getCommand();
            if (command instanceof CommandLine.HelpCommand) continue;
            assembled.add(command.getClass().getName());
            assertNull(names.put(e.getKey(), command.getClass().getName()), "two commands named " + e.getKey());
        }
        assertEquals(announced, assembled, "the squall app's subcommands are exactly the announced ones");
        for (String module : byModule.keySet()) {
            for (String cls : byModule.get(module)) assertTrue(cls.startsWith(module + "."), cls + " lives in " + module);
        }
    }

    @Test
    void everyCommandSharesTheOptionsAndDocumentsTheExitCodes() {
        for (SquallSubcommand c : Launcher.subcommands()) {
            CommandLine cl = new CommandLine(c);
            String help = cl.getUsageMessage();
            String name = Launcher.name(c);
            assertTrue(help.contains("Exit codes: 0 ok, 1 verification failed, 2 bad input"), name + " help lists the exit codes:\n" + help);
            assertTrue(help.contains("--json") && help.contains("--debug") && help.contains("--help"), name + ": " + help);
            assertFalse(help.contains("-V,") || help.contains("--version"), name + " lists -V:\n" + help);
            // picocli prints a description it cannot format raw (an unescaped % makes it so), with %n left in
            assertFalse(help.contains("%n") || help.contains("%%"), name + " help was not formatted (an unescaped %?):\n" + help);
            assertNotNull(cl.getCommandSpec().findOption("--json"), name);
            // spark only groups its jobs, which take --device (the device of tasks that Spark gives no GPU)
            if (!List.of("devices", "kernels", "spark").contains(name)) assertNotNull(cl.getCommandSpec().findOption("--device"), name + " takes --device");
            for (CommandLine sub : cl.getSubcommands().values()) {
                if (sub.getCommand() instanceof CommandLine.HelpCommand) continue;
                assertNotNull(sub.getCommandSpec().findOption("--device"), name + " " + sub.getCommandName() + " takes --device");
                assertNotNull(sub.getCommandSpec().findOption("--json"), name + " " + sub.getCommandName() + " takes --json");
                assertTrue(sub.getUsageMessage().contains("Exit codes: 0 ok"), name + " " + sub.getCommandName() + " lists the exit codes");
                assertFalse(sub.getUsageMessage().contains("%n"), name + " " + sub.getCommandName() + " help was not formatted");
            }
            assertFalse(cl.getCommandSpec().usageMessage().description().length == 0, name);
        }
    }

    /**
     * Spark is not on this module's class path (squall-spark has it as provided): {@code squall spark} still lists and
     * explains its jobs, and a job exits 2 saying how to get Spark's jars.
     */
    @Test
    void sparkWithoutSparksJarsExplainsAndExitsTwo() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.spark.SparkContext"));
        CliRun help = CliRun.of("spark", "--help");
        assertEquals(0, help.code(), help.toString());
        assertTrue(help.out().contains("permanent") && help.out().contains("cg") && help.out().contains("overhead"), help.toString());
        CliRun jobHelp = CliRun.of("spark", "permanent", "--help");
        assertEquals(0, jobHelp.code(), jobHelp.toString());
        assertTrue(jobHelp.out().contains("--chunks-per-slot"), jobHelp.toString());
        for (String[] args : new String[][] {{"spark", "permanent", "--random", "10:0.5", "--device", "jvm"}, {"spark", "cg", "--json"}}) {
            CliRun r = CliRun.of(args);
            assertEquals(2, r.code(), r.toString());
            assertTrue(r.err().contains("Spark's jars are not on the class path") && r.err().contains("spark-dist"), r.toString());
            assertFalse(r.stackTrace(), r.toString());
        }
        CliRun json = CliRun.of("spark", "cg", "--json");
        assertTrue(json.out().contains("\"error_kind\":\"bad_input\""), json.toString());
    }
}
