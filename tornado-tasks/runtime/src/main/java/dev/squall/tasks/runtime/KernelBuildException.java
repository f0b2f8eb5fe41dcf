package dev.squall.tasks.runtime;

/** A program did not compile on a device: carries the driver's build log and the generated source. */
public class KernelBuildException extends DeviceException {
    private final String log;
    private final String source;

    public KernelBuildException(String program, String deviceId, String log, String source) {
        super(Kind.DRIVER_ERROR, "build of " + program + " failed on " + deviceId + ":\n" + log
                + "\n---- generated source ----\n" + numbered(source));
        this.log = log;
        this.source = source;
    }

    public String log() {
        return log;
    }

    public String source() {
        return source;
    }

    private static String numbered(String src) {
        StringBuilder sb = new StringBuilder();
        String[] lines = src.split("\n", -1);
        for (int i = 0; i < lines.length; i++) sb.append(String.format("%4d  %s%n", i + 1, lines[i]));
        return sb.toString();
    }
}
