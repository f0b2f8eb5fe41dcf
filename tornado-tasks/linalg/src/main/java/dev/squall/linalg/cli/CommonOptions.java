package dev.squall.linalg.cli;

import dev.squall.tasks.runtime.Precision;
import picocli.CommandLine.Option;

/** Options every linalg command shares (ARCHITECTURE.md's conventions). */
public final class CommonOptions {
    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0 or jvm (default: best present)")
    String device;

    @Option(names = "--precision", paramLabel = "P", defaultValue = "fp64", description = "fp32 or fp64 (default ${DEFAULT-VALUE})")
    String precision;

    @Option(names = "--verify", description = "check the result against an independent residual and print it")
    boolean verify;

    @Option(names = "--json", description = "print one JSON object on stdout instead of text")
    boolean json;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5", description = "timed runs after one warm-up (default ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42", description = "seed of the random input (default ${DEFAULT-VALUE})")
    long seed;

    Precision precision() {
        return Precision.parse(precision);
    }

    void check() {
        if (repeat < 1) throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        precision();
    }
}
