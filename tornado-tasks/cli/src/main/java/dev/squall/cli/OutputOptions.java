package dev.squall.cli;

import picocli.CommandLine.Option;

/** {@code --json}, {@code --debug} and {@code --help}: how a command reports, shared by every command. */
public final class OutputOptions {
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 300, description = "show this help, with examples, and exit")
    boolean help;

    @Option(names = "--json", order = 200, description = "print the result (or the error) as one JSON object on stdout instead of text; no progress bars")
    boolean json;

    @Option(names = "--debug", order = 201, description = "on an error, also print the Java stack trace on stderr")
    boolean debug;

    public boolean json() {
        return json;
    }

    public boolean debug() {
        return debug;
    }
}
