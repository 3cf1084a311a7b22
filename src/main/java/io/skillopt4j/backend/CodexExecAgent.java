package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.CodexStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe. {@code codex_exec}: the Codex CLI as an agent, upstream's command line ({@link #command}) with the
 * prompt on stdin and JSONL events instead of the text log, for trace steps, usage and typed failures;
 * {@code --ephemeral} keeps Codex from writing a session file per run.
 */
public final class CodexExecAgent extends AbstractExecAgent {
    private static final Pattern LABEL = Pattern.compile("(?is)<answer>\\s*([A-E])\\s*</answer>");
    private final CodexSettings s;

    private CodexExecAgent(Builder b, CodexSettings s) {
        super(b, s.emptyResponseRetries());
        this.s = s;
        s.checkProfile(env);
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "codex_exec"; }

    @Override protected String prefix() { return "codex"; }

    /** Images go in as {@code -i FILE} (as upstream; data directories are readable in every Codex sandbox and not passed). */
    List<String> command(Path ws, List<Path> images) {
        List<String> cmd = new ArrayList<>(List.of(s.path(), "exec", "--json", "--ephemeral", "--skip-git-repo-check", "--color", "never",
                "-C", ws.toString()));
        if (!s.profile().isEmpty()) cmd.addAll(List.of("-p", s.profile()));
        if (!s.reasoningEffort().isEmpty()) cmd.addAll(List.of("-c", "model_reasoning_effort=\"" + s.reasoningEffort() + "\""));
        cmd.addAll(List.of("--sandbox", s.sandbox()));
        if (!s.approvalPolicy().isEmpty()) cmd.addAll(List.of("-c", "approval_policy=\"" + s.approvalPolicy() + "\""));
        cmd.addAll(s.overrides());
        if (!model.isBlank()) cmd.addAll(List.of("-m", model));
        for (Path image : images) {
            validated(image.toAbsolutePath().getParent() == null ? ws : image.toAbsolutePath().getParent());
            cmd.addAll(List.of("-i", image.toString()));
        }
        // "-": the prompt is stdin, whatever its size (an argv string is capped at 128 KiB)
        cmd.addAll(List.of("--output-last-message", ws.resolve("codex_last_message.txt").toString(), "-"));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        Path last = ws.resolve("codex_last_message.txt");
        Files.deleteIfExists(last);
        task.dataDirs().forEach(AbstractExecAgent::validated);
        Proc.Result r = Proc.run(command(ws, task.images()), ws, Proc.scrubbedEnv(env, CodexSettings.CHILD_ENV, Map.of()), prompt, timeout);
        String raw = rawOutput(r);
        ParsedTrace t = CodexStream.parseJsonl(r.stdout());
        if (r.timedOut()) return Attempt.failed(raw, t, CodexChatModel.timeout(backend(), t, timeout));
        BackendException failure = CodexChatModel.failure(backend(), t, r);
        if (failure != null) return Attempt.failed(raw, t, failure);
        String text = Files.isRegularFile(last) ? Files.readString(last, StandardCharsets.UTF_8) : "";
        if (text.isBlank()) text = t.finalText();
        if (text.isBlank()) return Attempt.empty(raw, t, backend() + ": empty last message");
        return Attempt.ok(raw, t, text);
    }

    /** Upstream's Codex Trace Summary, read from the parsed events (the JSON stream has no text log to scan). */
    @Override protected String summary(String raw, ParsedTrace t, String text) {
        String task = "unknown";
        String skill = "unknown";
        List<TraceStep> steps = t.steps();
        for (int i = 0; i + 1 < steps.size(); i++) {
            TraceStep call = steps.get(i);
            TraceStep res = steps.get(i + 1);
            if (call.kind() != TraceStep.Kind.TOOL_CALL || res.kind() != TraceStep.Kind.TOOL_RESULT) continue;
            String st = res.text().matches("(?s)exit -?\\d+: .*") ? "failed" : "success";
            if (call.text().contains("task.md")) task = st;
            if (call.text().contains("SKILL.md")) skill = st;
        }
        List<String> errors = new ArrayList<>();
        if (t.isError()) errors.add(t.error());
        if (t.meta().containsKey("failed_commands")) errors.add(t.meta().get("failed_commands") + " command(s) exited non-zero");
        Matcher m = LABEL.matcher(text);
        String format = m.find() ? "well_formed" : text.isBlank() ? "missing" : text.toLowerCase().contains("<answer>") ? "tagged_nonlabel" : "plain_text";
        return "Codex Trace Summary\n- sandbox: " + s.sandbox() + "\n"
                + (s.reasoningEffort().isEmpty() ? "" : "- reasoning: " + s.reasoningEffort() + "\n")
                + "- read task.md: " + task + "\n- read SKILL.md: " + skill + "\n"
                + "- shell/tool errors: " + (errors.isEmpty() ? "none" : String.join(" | ", errors)) + "\n"
                + "- final answer format: " + format + "\n"
                + "- final answer label: " + (format.equals("well_formed") ? m.group(1).toUpperCase() : "(none)") + "\n"
                + "- tokens used: " + ("true".equals(t.meta().get("usage_reported")) ? t.usage().totalTokens() : "not reported") + "\n";
    }

    /** Not thread-safe; use once. The executable and empty-response retries come from {@link CodexSettings}. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private CodexSettings settings;

        Builder() { super("gpt-4o", null); }

        public Builder settings(CodexSettings s) { this.settings = s; return this; }

        public CodexExecAgent build() { return new CodexExecAgent(this, settings == null ? CodexSettings.defaults() : settings); }
    }
}
