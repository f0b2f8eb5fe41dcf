/**
 * Matrix permanents: Ryser and Gray-code sweeps on the JVM, generic and per-matrix generated kernels on Squall
 * devices, exact 0/1 permanents, preprocessing, and the {@code squall permanent} subcommand. Matrix Market files
 * and random matrices come from {@code dev.squall.sparse} (its reader and generator serve every module). Kernel packages are open
 * to the runtime (it loads their generated launchers); the command package is open to picocli.
 */
module dev.squall.permanent {
    requires transitive dev.squall.tasks.runtime;
    requires transitive dev.squall.sparse; // SquareMatrix.fromCsr takes its CsrMatrix; files are read by its reader
    requires dev.squall.cli;
    requires info.picocli;

    exports dev.squall.permanent;
    exports dev.squall.permanent.cli;
    exports dev.squall.permanent.codegen;
    exports dev.squall.permanent.cpu;
    exports dev.squall.permanent.exact;
    exports dev.squall.permanent.frontier;
    exports dev.squall.permanent.gray;
    exports dev.squall.permanent.kernel;
    exports dev.squall.permanent.matrix;
    exports dev.squall.permanent.numeric;
    exports dev.squall.permanent.preprocess;
    exports dev.squall.permanent.reference;

    opens dev.squall.permanent.exact to dev.squall.tasks.runtime;
    opens dev.squall.permanent.frontier to dev.squall.tasks.runtime;
    opens dev.squall.permanent.kernel to dev.squall.tasks.runtime;
    opens dev.squall.permanent.cli to info.picocli;

    provides dev.squall.cli.SquallSubcommand with dev.squall.permanent.cli.PermanentCommand;
}
