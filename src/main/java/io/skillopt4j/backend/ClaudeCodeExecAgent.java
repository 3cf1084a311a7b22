package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.ClaudeStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code claude_code_exec}: Claude Code as an agent in the workspace ({@link #command}), the prompt on
 * stdin (never on argv, whatever its size). Upstream asks for {@code text}; we ask for {@code stream-json} so the trace
 * can be parsed into steps and the failure signals read ({@link ClaudeStream#failure}).
 */
public final class ClaudeCodeExecAgent extends AbstractExecAgent {
    /** Claude Code's own API retries per call, when the environment sets none: its 10 retries take minutes even for a
     *  bad key, and this harness retries failed attempts itself. */
    static final String CLI_MAX_RETRIES = "0";
    private final String profile;
    private final String effort;
    private final int maxThinkingTokens;
    private final String permissionMode;
    private final List<String> allowedTools;

    private ClaudeCodeExecAgent(Builder b) {
        super(b);
        this.profile = b.profile == null ? "" : b.profile.trim();
        this.effort = effort(b.effort);
        this.maxThinkingTokens = Math.max(0, b.maxThinkingTokens);
        this.permissionMode = b.permissionMode == null || b.permissionMode.isBlank() ? defaultPermissionMode(env, Proc.isRoot()) : b.permissionMode.strip();
        this.allowedTools = b.allowedTools == null ? List.of("Read", "Bash") : b.allowedTools.stream().map(String::strip).toList();
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "claude_code_exec"; }

    /** Claude reaches attachments and data directories only through its Read (or Bash) tool. */
    @Override public void requireInputs(boolean images, boolean dataDirs) {
        String cannot = images && !allowedTools.contains("Read") ? "see this benchmark's images without the Read tool"
                : dataDirs && !allowedTools.contains("Read") && !allowedTools.contains("Bash")
                ? "read this benchmark's data directories without the Read or Bash tool" : null;
        if (cannot != null) {
            throw new io.skillopt4j.ConfigException("claude_code_exec cannot " + cannot + " (allowed tools: " + String.join(",", allowedTools) + ")");
        }
    }

    @Override protected String prefix() { return "claude"; }

    /** Upstream's {@code _claude_effort}: ""/none/off → omitted, xhigh → max, low/medium/high/max kept, else medium. */
    static String effort(String e) {
        String v = e == null ? "medium" : e.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "none", "off" -> null;
            case "xhigh" -> "max";
            case "low", "medium", "high", "max" -> v;
            default -> "medium";
        };
    }

    /**
     * Upstream's bypassPermissions, which Claude Code refuses as root outside a sandbox; there dontAsk (the allowed tools
     * pre-approved, the rest denied), unless the environment says sandbox in Claude Code's words: {@code IS_SANDBOX=1}
     * exactly, or a {@code CLAUDE_CODE_BUBBLEWRAP} that is not off.
     */
    static String defaultPermissionMode(Map<String, String> env, boolean root) {
        String bwrap = env.getOrDefault("CLAUDE_CODE_BUBBLEWRAP", "").strip().toLowerCase(Locale.ROOT);
        boolean sandbox = "1".equals(env.getOrDefault("IS_SANDBOX", "").strip()) || !Set.of("", "0", "false", "no", "off").contains(bwrap);
        return root && !sandbox ? "dontAsk" : "bypassPermissions";
    }

    public String permissionMode() { return permissionMode; }

    /** Data directories and image folders go in as extra {@code --add-dir}s, as upstream's; {@code nativeSkill}: the skill
     *  is installed under .claude/skills/, so the Skill tool is offered. */
    List<String> command(Path ws, List<Path> dataDirs, List<Path> images, boolean nativeSkill) {
        List<String> offered = new ArrayList<>(allowedTools.stream().filter(s -> !s.isEmpty()).toList());
        if (nativeSkill && !offered.contains("Skill")) offered.add("Skill");
        String tools = String.join(",", offered);
        List<String> cmd = new ArrayList<>(List.of(path, "-p", "--output-format", "stream-json", "--verbose", "--no-session-persistence",
                "--permission-mode", permissionMode,
                "--add-dir", ws.toString(), "--tools", tools, "--allowedTools", tools));
        if (!profile.isEmpty()) {
            cmd.addAll(List.of("--settings", "{\"env\":{\"CLAUDE_CODE_USE_BEDROCK\":\"0\"}}", "--append-system-prompt", "Profile: " + profile));
        }
        if (!model.isBlank()) cmd.addAll(List.of("--model", model.startsWith("anthropic/") ? model.substring(10) : model));
        if (effort != null) cmd.addAll(List.of("--effort", effort));
        if (maxThinkingTokens > 0) cmd.addAll(List.of("--max-thinking-tokens", String.valueOf(maxThinkingTokens)));
        for (Path d : dataDirs) cmd.addAll(List.of("--add-dir", validated(d).toString()));
        for (Path img : images) {
            Path dir = img.toAbsolutePath().getParent();
            cmd.addAll(List.of("--add-dir", validated(dir == null ? ws : dir).toString()));
        }
        return cmd;
    }

    /** Scrubbed, with Claude Code's retries capped and its auto memory off unless the user set them: with auto memory a
     *  rollout could leave notes a later item reads, so items would no longer be scored independently. */
    static Map<String, String> childEnv(Map<String, String> parent) {
        Map<String, String> extra = new java.util.HashMap<>();
        if (!parent.containsKey("CLAUDE_CODE_MAX_RETRIES")) extra.put("CLAUDE_CODE_MAX_RETRIES", CLI_MAX_RETRIES);
        if (!parent.containsKey("CLAUDE_CODE_DISABLE_AUTO_MEMORY")) extra.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");
        return Proc.scrubbedEnv(parent, Set.of("ANTHROPIC_*", "CLAUDE_*", "IS_SANDBOX"), extra);
    }

    /** The folder Claude Code makes under {@code <config>/projects/} for {@code cwd} even without session persistence:
     *  dropped after a run that created it and left no file there, or one per workspace would pile up. */
    static Path projectDir(Map<String, String> childEnv, Path cwd) {
        String config = childEnv.getOrDefault("CLAUDE_CONFIG_DIR", "");
        Path base = !config.isBlank() ? Path.of(config) : childEnv.containsKey("HOME") ? Path.of(childEnv.get("HOME"), ".claude") : null;
        return base == null ? null : base.resolve("projects").resolve(cwd.toAbsolutePath().normalize().toString().replaceAll("[^A-Za-z0-9]", "-"));
    }

    /** Deletes {@code dir} when it holds no regular file (see {@link #projectDir}). */
    static void dropEmptyProjectDir(Path dir) {
        if (dir == null || !java.nio.file.Files.isDirectory(dir)) return;
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
            if (s.anyMatch(java.nio.file.Files::isRegularFile)) return;
        } catch (IOException | java.io.UncheckedIOException e) {
            return; // unreadable: leave it
        }
        io.skillopt4j.internal.AtomicFiles.deleteTreeQuietly(dir);
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        Map<String, String> childEnv = childEnv(env);
        Path project = projectDir(childEnv, ws);
        boolean existed = project != null && java.nio.file.Files.exists(project);
        Proc.Result r;
        try {
            r = Proc.run(command(ws, task.dataDirs(), task.images(), nativeSkill(task)), ws, childEnv,
                    nativeSkill(task) ? nativeExecPrompt(prompt) : execPrompt(prompt, false), timeout);
        } catch (IOException e) {
            return Attempt.failed("", null, AgentErrors.cannotRun(backend(), path, "model.claude_code_exec_path or CLAUDE_CODE_EXEC_PATH", e));
        } finally {
            if (!existed) dropEmptyProjectDir(project);
        }
        ParsedTrace t = ClaudeStream.parse(r.stdout());
        return judged(r, t, () -> AgentErrors.timeout(backend(), "Claude Code", timeout),
                () -> ClaudeStream.failure(backend(), t, r.exitCode(), r.stderr()), t.finalText().strip(),
                !t.terminal() ? t.error() : "empty final response");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        return "Claude Code Trace Summary\n- final answer format: " + answerFormat(text) + "\n- final response chars: " + text.length()
                + "\n- trace steps: " + t.steps().size() + "\n- errors: " + errors(t) + "\n";
    }

    /** Read from the parsed stream, never a grep for "error": every line has {@code "is_error":false}. */
    static String errors(ParsedTrace t) {
        List<String> out = new ArrayList<>();
        Map<String, String> m = t.meta();
        if (t.isError()) out.add("result: " + AbstractChatModel.clip(t.error(), 500));
        if (m.containsKey("api_error_status")) out.add("api status " + m.get("api_error_status") + " " + m.getOrDefault("api_error_type", ""));
        if (m.containsKey("assistant_error") && !t.isError()) out.add("api: " + m.get("assistant_error"));
        if (m.containsKey("api_retries")) out.add(m.get("api_retries") + " API retries (last status " + m.getOrDefault("api_retry_status", "?") + ")");
        if (!t.terminal() && !t.error().isBlank()) out.add(t.error());
        if (m.containsKey("tool_errors")) out.add(m.get("tool_errors") + " failed tool call(s)");
        if (m.containsKey("permission_denials")) out.add(m.get("permission_denials") + " permission denial(s)");
        return out.isEmpty() ? "none" : String.join(" | ", out);
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private String profile = "";
        private String effort = "medium";
        private int maxThinkingTokens = ModelKey.CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS.intValue();
        private String permissionMode;
        private List<String> allowedTools;

        Builder() { super("claude-sonnet-4-6", ModelKey.CLAUDE_CODE_EXEC_PATH.text()); }

        public Builder profile(String p) { this.profile = p; return this; }
        public Builder effort(String e) { this.effort = e; return this; }
        public Builder maxThinkingTokens(int n) { this.maxThinkingTokens = n; return this; }
        /** Claude Code's --permission-mode; blank: bypassPermissions, as root outside a sandbox dontAsk. */
        public Builder permissionMode(String m) { this.permissionMode = m; return this; }
        /** Tool allowlist (default Read, Bash); an empty list means no tools. */
        public Builder allowedTools(List<String> t) { this.allowedTools = t; return this; }

        public ClaudeCodeExecAgent build() { return new ClaudeCodeExecAgent(this); }
    }
}
