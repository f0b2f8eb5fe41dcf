package uk.ac.manchester.tornado.api.enums;

/** How {@code TornadoExecutionPlan.withProfiler} reports: printed after each execution, or only kept for {@code getProfilerResult()}. */
public enum ProfilerMode {
    CONSOLE, SILENT
}
