package io.skillopt4j.backend.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe (stateless). Runs a child process with a scrubbed environment, optional UTF-8 stdin, a timeout that
 * kills the whole tree, and output decoded as UTF-8 with replacement (so files written from it are valid UTF-8).
 */
public final class Proc {
    /** Variables every CLI may need: locale, paths, home, temp, proxies and CA bundles. Nothing secret. */
    public static final Set<String> BASE_ENV = Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE",
            "TMPDIR", "TEMP", "TMP", "SHELL", "TERM", "TZ", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT",
            "APPDATA", "LOCALAPPDATA", "USERPROFILE", "PROGRAMDATA", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
            "XDG_RUNTIME_DIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
            "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE");

    /** Immutable. What a run produced. {@code exitCode} is -1 after a timeout. */
    public record Result(int exitCode, String stdout, String stderr, boolean timedOut, Duration elapsed) {}

    private Proc() {}

    /** {@link #BASE_ENV}, {@code allowed} (names, or prefixes ending in '*') of {@code parent}, and {@code extra}. */
    public static Map<String, String> scrubbedEnv(Map<String, String> parent, Set<String> allowed, Map<String, String> extra) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : parent.entrySet()) {
            String k = e.getKey();
            boolean ok = BASE_ENV.contains(k) || allowed.contains(k)
                    || allowed.stream().anyMatch(a -> a.endsWith("*") && k.startsWith(a.substring(0, a.length() - 1)));
            if (ok) {
                out.put(k, e.getValue());
                // a child may echo what it got; make sure our traces and errors never repeat it
                if (io.skillopt4j.internal.Redactor.isSecretKey(k)) io.skillopt4j.internal.Redactor.remember(e.getValue());
            }
        }
        out.putAll(extra);
        return out;
    }

    /** Runs {@code cmd} in {@code cwd} (null = inherit) with exactly {@code env}; {@code timeout} null = none. */
    public static Result run(List<String> cmd, Path cwd, Map<String, String> env, String stdin, Duration timeout) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (cwd != null) pb.directory(cwd.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        // own threads, not the common pool: each drain blocks on its child
        CompletableFuture<byte[]> out = background("stdout", () -> drain(p.getInputStream()));
        CompletableFuture<byte[]> err = background("stderr", () -> drain(p.getErrorStream()));
        // stdin too: a prompt larger than the pipe buffer must not block us past the timeout
        byte[] in = stdin == null ? new byte[0] : stdin.getBytes(StandardCharsets.UTF_8);
        background("stdin", () -> {
            try (OutputStream os = p.getOutputStream()) {
                os.write(in);
            } catch (IOException ignored) {
                // the child may exit without reading stdin; its exit code tells the story
            }
            return null;
        });
        boolean timedOut = false;
        try {
            if (timeout == null) {
                p.waitFor();
            } else if (!p.waitFor(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                killTree(p);
            }
        } catch (InterruptedException e) {
            killTree(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + cmd.get(0), e);
        }
        // a grandchild that escaped the tree could hold the pipes open; don't wait for it forever
        String so = decode(out.completeOnTimeout(new byte[0], 10, TimeUnit.SECONDS).join());
        String se = decode(err.completeOnTimeout(new byte[0], 10, TimeUnit.SECONDS).join());
        return new Result(timedOut ? -1 : p.exitValue(), so, se, timedOut, Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * Writes {@code prompt} to {@code dir/name}, readable by this user only, for a CLI that reads its prompt from a
     * file. Prompts never go on argv: it is size-capped and visible to every user in the process list.
     */
    public static Path promptFile(Path dir, String name, String prompt) throws IOException {
        java.nio.file.Files.createDirectories(dir);
        Path f = dir.resolve(name);
        java.nio.file.Files.deleteIfExists(f);
        try {
            java.nio.file.Files.createFile(f, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            java.nio.file.Files.createFile(f);
        }
        java.nio.file.Files.writeString(f, prompt, StandardCharsets.UTF_8);
        return f;
    }

    /** Whether this process runs as root, where some CLIs refuse their permission-skipping modes. */
    public static boolean isRoot() {
        try {
            Object uid = java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return uid instanceof Integer i && i == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Kills {@code p} and every descendant, children first. */
    public static void killTree(Process p) {
        p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // grandchildren reparented after their parent died are still reachable from our snapshot above
    }

    private static <T> CompletableFuture<T> background(String what, java.util.function.Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, r -> io.skillopt4j.internal.Daemons.start("proc-" + what, r));
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            // the stream closes when the tree is killed; keep what we got
            return new byte[0];
        }
    }

    /** Decodes UTF-8, replacing malformed bytes with U+FFFD. */
    public static String decode(byte[] bytes) { return new String(bytes, StandardCharsets.UTF_8); }
}
