/**
 * The {@code squall} command line ({@code dev.squall.bench.cli.SquallCommand}: the subcommands every module provides
 * as {@code dev.squall.cli.SquallSubcommand} services, and its own devices, kernels, demo and bench), the
 * device-comparison runner and the JMH benchmarks. Kernel packages are open to the runtime, the command package to picocli, the benchmarks to JMH.
 * JMH and EJML (the JVM benchmarks' peer) are static requirements: only the benchmarks use them, which JMH runs in
 * its own JVMs, so the command line starts without them.
 */
module dev.squall.bench {
    requires dev.squall.hmatrix;
    requires dev.squall.linalg;
    requires dev.squall.permanent;
    requires dev.squall.sparse;
    requires dev.squall.cli;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires java.desktop;
    requires org.knowm.xchart;
    requires static jmh.core;
    requires static ejml.core;
    requires static ejml.ddense;
    requires static ejml.dsparse;

    exports dev.squall.bench.cli;
    exports dev.squall.bench.suite;

    opens dev.squall.bench.cli to info.picocli;
    opens dev.squall.bench.demo to dev.squall.tasks.runtime;
    opens dev.squall.bench.suite to dev.squall.tasks.runtime;
    opens dev.squall.bench.queues to dev.squall.tasks.runtime;
    opens dev.squall.bench.stream to dev.squall.tasks.runtime;
    opens dev.squall.bench.jmh to jmh.core, dev.squall.tasks.runtime;
    opens dev.squall.bench.jmh.jmh_generated to jmh.core;

    uses dev.squall.cli.SquallSubcommand;

    provides dev.squall.cli.SquallSubcommand with dev.squall.bench.cli.BenchCommand, dev.squall.bench.cli.DemoCommand,
            dev.squall.bench.cli.DevicesCommand, dev.squall.bench.cli.KernelsCommand;
}
