package io.skillopt4j.backend;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe; one per test. Installs src/test/resources/fakecli/fake-cli.sh under a CLI's name in its
 * own folder (made executable at test time) and reads back what the fake recorded per call.
 */
final class FakeCli {
    final Path dir;
    final Path exe;

    private FakeCli(Path dir, Path exe) { this.dir = dir; this.exe = exe; }

    static FakeCli install(Path root, String name) {
        try {
            Path dir = Files.createDirectories(root.resolve("fake-" + name));
            Path exe = dir.resolve(name);
            try (InputStream in = FakeCli.class.getResourceAsStream("/fakecli/fake-cli.sh")) {
                Files.write(exe, in.readAllBytes());
            }
            if (!exe.toFile().setExecutable(true)) throw new IllegalStateException("cannot chmod +x " + exe);
            return new FakeCli(dir, exe);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String path() { return exe.toString(); }

    static String resource(String name) {
        try (InputStream in = FakeCli.class.getResourceAsStream("/fakecli/replays/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FakeCli file(String name, String content) {
        try {
            Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FakeCli replay(String resource) { return file("reply", resource(resource)); }

    int calls() {
        try {
            Path c = dir.resolve("count");
            return Files.exists(c) ? Integer.parseInt(Files.readString(c).strip()) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> argv(int n) {
        String s = read("argv." + n);
        java.util.List<String> out = new java.util.ArrayList<>(List.of(exe.toString()));
        if (!s.isEmpty()) out.addAll(Arrays.asList(s.substring(0, s.length() - 1).split("\0", -1)));
        return out;
    }

    String stdin(int n) { return read("stdin." + n); }

    String env(int n) { return read("env." + n); }

    String read(String name) {
        try {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A parent environment with PATH/HOME, planted secrets of other services, and {@code extra}. */
    static Map<String, String> env(Map<String, String> extra) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        m.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        m.put("HOME", System.getProperty("java.io.tmpdir"));
        m.put("AWS_SECRET_ACCESS_KEY", "aws-planted-secret-value-123");
        m.put("MINIMAX_API_KEY", "mm-planted-secret-value-456");
        m.putAll(extra);
        return m;
    }
}
