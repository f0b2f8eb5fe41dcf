package dev.squall.tasks.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * On-disk cache of device binaries (PTX/CUBIN, OpenCL program binaries) keyed by a hash of the
 * source, the build options and the device. Lives in {@code $SQUALL_CACHE}, else
 * {@code ~/.cache/squall}. Writes are atomic (temp file + rename) so concurrent processes are safe.
 */
public final class BuildCache {
    private final Path dir;

    public BuildCache(Path dir) {
        this.dir = dir;
    }

    /** The default cache directory. */
    public static BuildCache standard() {
        String env = System.getenv("SQUALL_CACHE");
        Path dir = env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "squall");
        return new BuildCache(dir);
    }

    /** A stable key for (backend, device identity, options, source). */
    public static String key(String backend, String deviceIdentity, String options, String source) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String s : new String[] {backend, deviceIdentity, options, source}) {
                md.update(s.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return backend + "-" + HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Optional<byte[]> get(String key) {
        Path p = dir.resolve(key + ".bin");
        try {
            return Files.isRegularFile(p) ? Optional.of(Files.readAllBytes(p)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty(); // an unreadable entry is rebuilt, never fatal
        }
    }

    public void put(String key, byte[] binary) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, key, ".tmp");
            Files.write(tmp, binary);
            Files.move(tmp, dir.resolve(key + ".bin"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("squall: warning: could not write build cache " + dir + ": " + e.getMessage());
        }
    }

    public Path directory() {
        return dir;
    }
}
