package io.skillopt4j.backend;

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
 * Thread-safe. {@code codex_exec}: the Codex CLI as an agent, with upstream's exact command line
 * {@code codex exec --skip-git-repo-check --color never -C <ws> [-p profile] [-c model_reasoning_effort="e"]
 * --sandbox s [-c approval_policy="p"] -c sandbox_workspace_write.network_access=b -c web_search="..."
 * [-m model] --output-last-message <ws>/codex_last_message.txt <prompt>} (prompt last in argv, text log on
 * stdout). A timeout or non-zero exit fails at once; an empty last message is retried.
 */
public final class CodexExecAgent extends AbstractExecAgent {
    private static final Pattern LABEL = Pattern.compile("(?is)<answer>\\s*([A-E])\\s*</answer>");
    private final CodexSettings s;

    private CodexExecAgent(Builder b) {
        super(b.model, b.env, b.meter, (b.settings == null ? CodexSettings.defaults() : b.settings).emptyResponseRetries(), b.timeout);
        this.s = b.settings == null ? CodexSettings.defaults() : b.settings;
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "codex_exec"; }

    @Override protected String prefix() { return "codex"; }

    List<String> command(Path ws, String prompt) { return command(ws, prompt, List.of()); }

    /** Images go in as {@code -i FILE} (as upstream; data directories are readable in every Codex sandbox and not passed). */
    List<String> command(Path ws, String prompt, List<Path> images) {
        List<String> cmd = new ArrayList<>(List.of(s.path(), "exec", "--skip-git-repo-check", "--color", "never", "-C", ws.toString()));
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
        cmd.addAll(List.of("--output-last-message", ws.resolve("codex_last_message.txt").toString(), prompt));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        Path last = ws.resolve("codex_last_message.txt");
        Files.deleteIfExists(last);
        task.dataDirs().forEach(AbstractExecAgent::validated);
        Proc.Result r = exec(command(ws, prompt, task.images()), ws, Proc.scrubbedEnv(env, CodexSettings.CHILD_ENV, Map.of()), null, timeout);
        String raw = rawOutput(r);
        ParsedTrace t = CodexStream.parse(r.stdout() + "\n" + r.stderr());
        if (r.timedOut()) return new Attempt(raw, t, "", Outcome.FAILED, "codex_exec: timed out after " + timeout.toSeconds() + "s");
        if (r.exitCode() != 0) return new Attempt(raw, t, "", Outcome.FAILED, exitFailure("codex exec", r));
        String text = Files.isRegularFile(last) ? Files.readString(last, StandardCharsets.UTF_8) : "";
        if (text.isBlank()) return new Attempt(raw, t, "", Outcome.EMPTY, "codex_exec: empty last message");
        return new Attempt(raw, t, text, Outcome.OK, "");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        String[] lines = raw.split("\\r?\\n", -1);
        String task = "unknown";
        String skill = "unknown";
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("ERROR:") && errors.size() < 3) errors.add(lines[i].strip());
            if (lines[i].strip().startsWith("exec") && i + 2 < lines.length) {
                String both = lines[i + 1] + " " + lines[i + 2];
                String st = lines[i + 2].contains("succeeded") ? "success" : lines[i + 2].contains("failed") || lines[i + 2].contains("ERROR") ? "failed" : null;
                if (st != null && both.contains("task.md")) task = st;
                if (st != null && both.contains("SKILL.md")) skill = st;
            }
        }
        Matcher m = LABEL.matcher(text);
        String format = m.find() ? "well_formed" : text.isBlank() ? "missing" : text.toLowerCase().contains("<answer>") ? "tagged_nonlabel" : "plain_text";
        StringBuilder sb = new StringBuilder("Codex Trace Summary\n");
        if (t.meta().containsKey("sandbox")) sb.append("- sandbox: ").append(t.meta().get("sandbox")).append('\n');
        if (t.meta().containsKey("reasoning")) sb.append("- reasoning: ").append(t.meta().get("reasoning")).append('\n');
        sb.append("- read task.md: ").append(task).append("\n- read SKILL.md: ").append(skill).append('\n');
        sb.append("- shell/tool errors: ").append(errors.isEmpty() ? "none" : String.join(" | ", errors)).append('\n');
        sb.append("- final answer format: ").append(format).append('\n');
        sb.append("- final answer label: ").append(format.equals("well_formed") ? m.group(1).toUpperCase() : "(none)").append('\n');
        if (t.meta().containsKey("tokens_used")) sb.append("- tokens used: ").append(t.meta().get("tokens_used")).append('\n');
        return sb.toString();
    }

    /** Not thread-safe; use once. */
    public static final class Builder {
        private String model = "gpt-4o";
        private CodexSettings settings;
        private Map<String, String> env;
        private UsageMeter meter;
        private Duration timeout;

        public Builder model(String m) { this.model = m; return this; }
        public Builder settings(CodexSettings s) { this.settings = s; return this; }
        public Builder env(Map<String, String> e) { this.env = e; return this; }
        public Builder meter(UsageMeter m) { this.meter = m; return this; }
        public Builder timeout(Duration t) { this.timeout = t; return this; }

        public CodexExecAgent build() { return new CodexExecAgent(this); }
    }
}
