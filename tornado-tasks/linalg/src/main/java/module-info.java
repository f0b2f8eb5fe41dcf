/**
 * Batched dense linear algebra on Squall devices: GEMV/GEMM, small QR and SVD, triangular inverses, Cholesky, and
 * their {@code squall} subcommands. Kernel packages are open to the runtime (it loads their generated launchers);
 * the command package is open to picocli (it fills the options reflectively).
 */
module dev.squall.linalg {
    requires transitive dev.squall.tasks.runtime;
    requires dev.squall.cli;
    requires dev.squall.sparse;
    requires info.picocli;

    exports dev.squall.linalg.cholesky;
    exports dev.squall.linalg.cli;
    exports dev.squall.linalg.gemm;
    exports dev.squall.linalg.plan;
    exports dev.squall.linalg.qr;
    exports dev.squall.linalg.reference;
    exports dev.squall.linalg.svd;
    exports dev.squall.linalg.triangular;

    opens dev.squall.linalg.cholesky to dev.squall.tasks.runtime;
    opens dev.squall.linalg.gemm to dev.squall.tasks.runtime;
    opens dev.squall.linalg.qr to dev.squall.tasks.runtime;
    opens dev.squall.linalg.svd to dev.squall.tasks.runtime;
    opens dev.squall.linalg.triangular to dev.squall.tasks.runtime;
    opens dev.squall.linalg.cli to info.picocli;

    provides dev.squall.cli.SquallSubcommand with dev.squall.linalg.cli.CholeskyCommand, dev.squall.linalg.cli.GemmCommand,
            dev.squall.linalg.cli.QrCommand, dev.squall.linalg.cli.SvdCommand, dev.squall.linalg.cli.TrinvCommand;
}
