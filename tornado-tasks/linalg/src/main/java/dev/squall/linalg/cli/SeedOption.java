package dev.squall.linalg.cli;

import picocli.CommandLine.Option;

/** {@code --seed} of the linalg commands' random inputs. */
public final class SeedOption {
    @Option(names = "--seed", paramLabel = "S", defaultValue = "42", description = "seed of the random input (default ${DEFAULT-VALUE})")
    long seed;
}
