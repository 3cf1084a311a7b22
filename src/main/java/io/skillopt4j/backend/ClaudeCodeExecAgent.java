package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
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
 * Thread-safe. {@code claude_code_exec}: Claude Code as an agent in the workspace:
 * {@code claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --add-dir <ws>
 * --tools Read,Bash --allowedTools Read,Bash [--settings ... --append-system-prompt "Profile: p"] [--model m]
 * [--effort e] [--max-thinking-tokens n] -- <prompt>}. Upstream asks for {@code text}; we ask for
 * {@code stream-json} so the trace can be parsed into steps ({@code claude_trace_steps.txt}).
 */
public final class ClaudeCodeExecAgent extends AbstractExecAgent {
    private final String path;
    private final String profile;
    private final String effort;
    private final int maxThinkingTokens;
    private final String permissionMode;
    private final List<String> allowedTools;

    private ClaudeCodeExecAgent(Builder b) {
        super(b);
        this.path = b.executable();
        this.profile = b.profile == null ? "" : b.profile.trim();
        this.effort = effort(b.effort);
        this.maxThinkingTokens = Math.max(0, b.maxThinkingTokens);
        this.permissionMode = b.permissionMode == null || b.permissionMode.isBlank() ? "bypassPermissions" : b.permissionMode;
        this.allowedTools = b.allowedTools == null ? List.of("Read", "Bash") : List.copyOf(b.allowedTools);
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "claude_code_exec"; }

    /** Claude reaches attachments and data directories only through its Read (or Bash) tool. */
    @Override public void requireInputs(boolean images, boolean dataDirs) {
        List<String> tools = allowedTools.stream().map(String::strip).toList();
        if (images && !tools.contains("Read")) {
            throw new io.skillopt4j.ConfigException("claude_code_exec cannot see this benchmark's images without the Read tool (allowed tools: "
                    + String.join(",", tools) + ")");
        }
        if (dataDirs && !tools.contains("Read") && !tools.contains("Bash")) {
            throw new io.skillopt4j.ConfigException("claude_code_exec cannot read this benchmark's data directories without the Read or Bash tool (allowed tools: "
                    + String.join(",", tools) + ")");
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

    List<String> command(Path ws, String prompt) { return command(ws, prompt, List.of(), List.of()); }

    /** Data directories and each image's folder go in as extra {@code --add-dir}s, as upstream's CLI path. */
    List<String> command(Path ws, String prompt, List<Path> dataDirs, List<Path> images) { return command(ws, prompt, dataDirs, images, false); }

    /** {@code nativeSkill}: the skill is installed under .claude/skills/, so the Skill tool is offered and the prompt does not name a file. */
    List<String> command(Path ws, String prompt, List<Path> dataDirs, List<Path> images, boolean nativeSkill) {
        List<String> offered = new ArrayList<>(allowedTools.stream().map(String::strip).filter(s -> !s.isEmpty()).toList());
        if (nativeSkill && !offered.contains("Skill")) offered.add("Skill");
        String tools = String.join(",", offered);
        List<String> cmd = new ArrayList<>(List.of(path, "-p", "--output-format", "stream-json", "--verbose", "--permission-mode", permissionMode,
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
        cmd.add("--");
        cmd.add(nativeSkill ? nativeExecPrompt(prompt) : execPrompt(prompt, false));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        Proc.Result r = exec(command(ws, prompt, task.dataDirs(), task.images(), nativeSkill(task)), ws, Proc.scrubbedEnv(env, Set.of("ANTHROPIC_*", "CLAUDE_*"), Map.of()), null, timeout);
        String raw = rawOutput(r);
        ParsedTrace t = ClaudeStream.parse(r.stdout());
        String text = t.finalText().strip();
        if (r.timedOut()) return new Attempt(raw, t, "", Outcome.EMPTY, "claude_code_exec: timed out after " + timeout.toSeconds() + "s");
        if (t.isError()) return new Attempt(raw, t, text, Outcome.FAILED, "claude_code_exec: Claude reported an error: " + t.error());
        if (text.isEmpty()) {
            String why = r.exitCode() != 0 ? "exited with code " + r.exitCode() : !t.terminal() ? t.error() : "empty final response";
            return new Attempt(raw, t, "", Outcome.EMPTY, "claude_code_exec: " + why);
        }
        return new Attempt(raw, t, text, Outcome.OK, "");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        return "Claude Code Trace Summary\n- final answer format: " + answerFormat(text) + "\n- final response chars: " + text.length()
                + "\n- trace steps: " + t.steps().size() + "\n- errors: " + errorLines(raw) + "\n";
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
        public Builder permissionMode(String m) { this.permissionMode = m; return this; }
        /** Tool allowlist (default Read, Bash); an empty list means no tools. */
        public Builder allowedTools(List<String> t) { this.allowedTools = t; return this; }

        public ClaudeCodeExecAgent build() { return new ClaudeCodeExecAgent(this); }
    }
}
