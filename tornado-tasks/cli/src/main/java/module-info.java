/**
 * What every {@code squall} subcommand shares: the service interface modules announce their commands through
 * ({@link dev.squall.cli.SquallSubcommand}), the common options ({@link dev.squall.cli.RunOptions}), exit codes and the
 * one error handler ({@link dev.squall.cli.Launcher}), JSON output ({@link dev.squall.cli.JsonOutput}), progress bars
 * ({@link dev.squall.cli.Progress}), cost warnings and overflow-safe size arithmetic. Command packages of other
 * modules are opened to picocli (it fills their options reflectively); result records need only be exported.
 */
module dev.squall.cli {
    requires transitive dev.squall.tasks.runtime;
    requires transitive info.picocli;
    requires com.fasterxml.jackson.databind;
    requires me.tongfei.progressbar;

    exports dev.squall.cli;

    opens dev.squall.cli to info.picocli;

    uses dev.squall.cli.SquallSubcommand;
}
