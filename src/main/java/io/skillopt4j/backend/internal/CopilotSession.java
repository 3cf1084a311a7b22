package io.skillopt4j.backend.internal;

import io.skillopt4j.internal.AtomicFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Not thread-safe; one per Copilot CLI call. Keeps a call from leaving its session state and log behind: it gets its
 * own session id and temporary log folder, and a temporary home when the CLI needs no stored login and none was
 * configured; otherwise {@link #close} removes the session's folder and lock from the configured or default home.
 */
public final class CopilotSession implements AutoCloseable {
    /** Variables with which the Copilot CLI authenticates without a stored login. */
    static final List<String> LOGIN_FREE = List.of("COPILOT_PROVIDER_BASE_URL", "COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN");

    private final Path tmp;
    private final Path home;
    private final boolean ownHome;
    private final String id = UUID.randomUUID().toString();

    private CopilotSession(Path tmp, Path home, boolean ownHome) {
        this.tmp = tmp;
        this.home = home;
        this.ownHome = ownHome;
    }

    /** Opens a session for one call; {@code configuredHome} is {@code copilot_exec_home} (blank: none), {@code env} the parent's. */
    public static CopilotSession open(String configuredHome, Map<String, String> env) throws IOException {
        Path tmp = Files.createTempDirectory("skillopt_copilot_");
        if (configuredHome != null && !configuredHome.isBlank()) return new CopilotSession(tmp, Path.of(configuredHome), false);
        boolean loginFree = LOGIN_FREE.stream().anyMatch(k -> env.get(k) != null && !env.get(k).isBlank());
        if (loginFree) return new CopilotSession(tmp, Files.createDirectories(tmp.resolve("home")), true);
        String inherited = env.getOrDefault("COPILOT_HOME", "");
        Path home = !inherited.isBlank() ? Path.of(inherited) : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".copilot");
        return new CopilotSession(tmp, home, false);
    }

    /** The session id and log folder to pass to the CLI. */
    public List<String> args() {
        return new ArrayList<>(List.of("--session-id", id, "--log-dir", tmp.resolve("logs").toString()));
    }

    public Map<String, String> env() { return Map.of("COPILOT_HOME", home.toString()); }

    public String id() { return id; }

    /** Removes the call's temporary folder and, in a shared home, the session's own folder and lock. */
    @Override public void close() {
        if (!ownHome) {
            AtomicFiles.deleteTreeQuietly(home.resolve("session-state").resolve(id));
            AtomicFiles.deleteTreeQuietly(home.resolve("session-state").resolve(".session-operation-locks").resolve(id + ".lock"));
        }
        AtomicFiles.deleteTreeQuietly(tmp);
    }
}
