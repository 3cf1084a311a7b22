package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ModelSettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static io.skillopt4j.config.ModelKey.*;

/**
 * Immutable. Codex CLI settings shared by {@code codex_exec} as agent and as chat model (upstream's
 * {@code get_codex_exec_config}).
 */
public record CodexSettings(String path, String sandbox, String profile, String reasoningEffort, boolean networkAccess,
                            boolean webSearch, String approvalPolicy, Path workingDirectory, int emptyResponseRetries) {
    public static final List<String> SANDBOXES = List.of("read-only", "workspace-write", "danger-full-access");
    private static final Pattern TABLE = Pattern.compile("^\\s*\\[\\s*([^\\]]*?)\\s*\\]");
    private static final Pattern PROFILE_KEY = Pattern.compile("^\\s*profile\\s*=");
    /** What the Codex child may see besides the basics. */
    static final Set<String> CHILD_ENV = Set.of("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT", "CODEX_HOME", "CODEX_API_KEY", "AZURE_OPENAI_API_KEY");

    public CodexSettings {
        path = path == null || path.isBlank() ? CODEX_EXEC_PATH.text() : path;
        sandbox = sandbox == null || sandbox.isBlank() ? CODEX_EXEC_SANDBOX.text() : sandbox.trim();
        if (!SANDBOXES.contains(sandbox)) throw ConfigException.badValue("", "codex_exec_sandbox", sandbox, "one of " + String.join(", ", SANDBOXES));
        profile = profile == null ? "" : profile.trim();
        reasoningEffort = reasoningEffort == null ? CODEX_EXEC_REASONING_EFFORT.text() : reasoningEffort.trim();
        approvalPolicy = approvalPolicy == null || approvalPolicy.isBlank() ? CODEX_EXEC_APPROVAL_POLICY.text() : approvalPolicy.trim();
        if (emptyResponseRetries < 0) emptyResponseRetries = 0;
    }

    /** Upstream's defaults (the flag table's). */
    public static CodexSettings defaults() { return new CodexSettings(null, null, null, null, false, false, null, null, EXEC_EMPTY_RESPONSE_RETRIES.intValue()); }

    /**
     * Refuses, before any call, a profile Codex 0.171 would silently ignore (no {@code $CODEX_HOME/NAME.config.toml}) or
     * exit 1 on (a legacy profile table or key in {@code config.toml}).
     */
    public void checkProfile(Map<String, String> env) {
        if (profile.isEmpty()) return;
        String home = env.getOrDefault("CODEX_HOME", "");
        Path dir = !home.isBlank() ? Path.of(home) : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".codex");
        Path config = dir.resolve("config.toml");
        if (Files.isRegularFile(config)) {
            try {
                if (legacyProfile(Files.readString(config, StandardCharsets.UTF_8), profile)) {
                    throw ConfigException.badValue("", "codex_exec_profile", profile, "a profile in " + dir.resolve(profile + ".config.toml")
                            + " (Codex 0.171 rejects the legacy [profiles.*] table and profile key in " + config + ": move those settings there)");
                }
            } catch (IOException e) {
                throw new ConfigException("codex_exec_profile: cannot read " + config + ": " + e.getMessage(), e);
            }
        }
        Path file = dir.resolve(profile + ".config.toml");
        if (!Files.isRegularFile(file)) {
            throw ConfigException.badValue("", "codex_exec_profile", profile, "a profile Codex can find: " + file + " does not exist"
                    + " (Codex 0.171 reads -p NAME from $CODEX_HOME/NAME.config.toml and ignores a missing one)");
        }
    }

    /** A top-level profile key or a [profiles.name] table. */
    static boolean legacyProfile(String toml, String name) {
        boolean topLevel = true;
        for (String line : toml.split("\\r?\\n")) {
            java.util.regex.Matcher t = TABLE.matcher(line);
            if (t.find()) {
                topLevel = false;
                String table = t.group(1).replace("\"", "").replace("'", "").replace(" ", "");
                if (table.equals("profiles." + name)) return true;
            } else if (topLevel && PROFILE_KEY.matcher(line).find()) {
                return true;
            }
        }
        return false;
    }

    /** The two {@code -c} overrides both Codex command lines send. */
    public List<String> overrides() {
        return List.of("-c", "sandbox_workspace_write.network_access=" + networkAccess, "-c", "web_search=\"" + (webSearch ? "live" : "disabled") + "\"");
    }

    /** Config keys (with upstream's aliases) first, then env vars, then the flag table's defaults. */
    static CodexSettings from(ModelSettings s) {
        String wd = s.string(CODEX_WORKING_DIRECTORY);
        return new CodexSettings(s.string(CODEX_EXEC_PATH), s.string(CODEX_EXEC_SANDBOX), s.string(CODEX_EXEC_PROFILE),
                s.string(CODEX_EXEC_REASONING_EFFORT), s.bool(CODEX_EXEC_NETWORK_ACCESS), s.bool(CODEX_EXEC_WEB_SEARCH),
                s.string(CODEX_EXEC_APPROVAL_POLICY), wd == null ? null : Path.of(wd), s.integer(EXEC_EMPTY_RESPONSE_RETRIES));
    }
}
