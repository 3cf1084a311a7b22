package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ModelSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static io.skillopt4j.config.ModelKey.*;

/**
 * Immutable. Codex CLI settings shared by {@code codex_exec} as agent and as chat model (upstream's
 * {@code get_codex_exec_config}): path, sandbox (read-only | workspace-write | danger-full-access), profile,
 * reasoning effort (default {@code none}), network access, web search, approval policy (default
 * {@code never}), an optional working directory and the empty-response retries.
 */
public record CodexSettings(String path, String sandbox, String profile, String reasoningEffort, boolean networkAccess,
                            boolean webSearch, String approvalPolicy, Path workingDirectory, int emptyResponseRetries) {
    /** Sandboxes upstream accepts. */
    public static final List<String> SANDBOXES = List.of("read-only", "workspace-write", "danger-full-access");
    /** Environment the Codex child may see besides the basics. */
    static final Set<String> CHILD_ENV = Set.of("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT", "CODEX_HOME", "CODEX_API_KEY", "AZURE_OPENAI_API_KEY");

    public CodexSettings {
        path = path == null || path.isBlank() ? CODEX_EXEC_PATH.text() : path;
        sandbox = validateSandbox(sandbox == null || sandbox.isBlank() ? CODEX_EXEC_SANDBOX.text() : sandbox.trim());
        profile = profile == null ? "" : profile.trim();
        reasoningEffort = reasoningEffort == null ? CODEX_EXEC_REASONING_EFFORT.text() : reasoningEffort.trim();
        approvalPolicy = approvalPolicy == null || approvalPolicy.isBlank() ? CODEX_EXEC_APPROVAL_POLICY.text() : approvalPolicy.trim();
        if (emptyResponseRetries < 0) emptyResponseRetries = 0;
    }

    /** Returns upstream's defaults (the flag table's). */
    public static CodexSettings defaults() { return new CodexSettings(null, null, null, null, false, false, null, null, EXEC_EMPTY_RESPONSE_RETRIES.intValue()); }

    static String validateSandbox(String s) {
        if (!SANDBOXES.contains(s)) throw ConfigException.badValue("", "codex_exec_sandbox", s, "one of " + String.join(", ", SANDBOXES));
        return s;
    }

    /** Returns the two {@code -c} overrides both Codex command lines send. */
    public List<String> overrides() {
        return List.of("-c", "sandbox_workspace_write.network_access=" + networkAccess, "-c", "web_search=\"" + (webSearch ? "live" : "disabled") + "\"");
    }

    /** Reads the settings: config keys (with upstream's aliases) first, then env vars, then the flag table's defaults. */
    static CodexSettings from(ModelSettings s) {
        String wd = s.string(CODEX_WORKING_DIRECTORY);
        return new CodexSettings(s.string(CODEX_EXEC_PATH), s.string(CODEX_EXEC_SANDBOX), s.string(CODEX_EXEC_PROFILE),
                s.string(CODEX_EXEC_REASONING_EFFORT), s.bool(CODEX_EXEC_NETWORK_ACCESS), s.bool(CODEX_EXEC_WEB_SEARCH),
                s.string(CODEX_EXEC_APPROVAL_POLICY), wd == null ? null : Path.of(wd), s.integer(EXEC_EMPTY_RESPONSE_RETRIES));
    }
}
