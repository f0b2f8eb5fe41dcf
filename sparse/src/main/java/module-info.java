/**
 * Sparse matrices on Squall devices: formats and their inspectors, SpMV/SpMM executors, SGD matrix factorisation, generators, Matrix Market
 * input, and the {@code squall} subcommands. The kernels ({@code spmv.kernels}, {@code limits.kernels}, {@code sgd.kernels}, {@code solve.kernels}) are internal and open to the runtime
 * (it loads their generated launchers); the command package is open to picocli (it fills the options reflectively).
 * The Matrix Market reader ({@code io}) and the random matrices ({@code generate}) serve the other modules too: the
 * permanent reads and draws its matrices through them.
 */
module dev.squall.sparse {
    requires transitive dev.squall.tasks.runtime;
    requires dev.squall.cli;
    requires info.picocli;

    exports dev.squall.sparse.cli;
    exports dev.squall.sparse.exec;
    exports dev.squall.sparse.format;
    exports dev.squall.sparse.generate;
    exports dev.squall.sparse.inspect;
    exports dev.squall.sparse.io;
    exports dev.squall.sparse.limits;
    exports dev.squall.sparse.multigrid;
    exports dev.squall.sparse.precond;
    exports dev.squall.sparse.reference;
    exports dev.squall.sparse.sgd;
    exports dev.squall.sparse.solve;
    exports dev.squall.sparse.spmm;
    exports dev.squall.sparse.spmv;

    opens dev.squall.sparse.spmv.kernels to dev.squall.tasks.runtime;
    opens dev.squall.sparse.limits.kernels to dev.squall.tasks.runtime;
    opens dev.squall.sparse.sgd.kernels to dev.squall.tasks.runtime;
    opens dev.squall.sparse.solve.kernels to dev.squall.tasks.runtime;
    opens dev.squall.sparse.cli to info.picocli;

    provides dev.squall.cli.SquallSubcommand with dev.squall.sparse.cli.GsCommand, dev.squall.sparse.cli.PcgCommand, dev.squall.sparse.cli.SgdCommand,
            dev.squall.sparse.cli.SpmmCommand, dev.squall.sparse.cli.SpmvCommand;
}
