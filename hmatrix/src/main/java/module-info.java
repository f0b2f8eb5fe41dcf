/**
 * Point clouds, covariance kernels, H2 matrices and kernel sums on Squall devices, and the {@code squall h2} and
 * {@code squall ksum} subcommands. Kernel packages are open to the runtime (it loads their generated launchers); the
 * command package is open to picocli.
 */
module dev.squall.hmatrix {
    requires transitive dev.squall.tasks.runtime;
    requires dev.squall.cli;
    requires dev.squall.linalg;
    requires dev.squall.sparse; // CopyBandwidth: the copy kernel the H2 product is compared with
    requires info.picocli;

    exports dev.squall.hmatrix.cli;
    exports dev.squall.hmatrix.h2;
    exports dev.squall.hmatrix.kernel;
    exports dev.squall.hmatrix.ksum;
    exports dev.squall.hmatrix.points;

    opens dev.squall.hmatrix.h2 to dev.squall.tasks.runtime;
    opens dev.squall.hmatrix.kernel to dev.squall.tasks.runtime;
    opens dev.squall.hmatrix.ksum to dev.squall.tasks.runtime;
    opens dev.squall.hmatrix.cli to info.picocli;

    provides dev.squall.cli.SquallSubcommand with dev.squall.hmatrix.cli.H2Command, dev.squall.hmatrix.cli.KsumCommand;
}
