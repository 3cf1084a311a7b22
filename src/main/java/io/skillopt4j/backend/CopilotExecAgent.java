package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.backend.internal.CopilotStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe. {@code copilot_exec}: the Copilot CLI as an agent: {@code copilot -p <prompt> --output-format
 * json --stream off --no-color --log-level none -C <ws> --disable-builtin-mcps --no-custom-instructions
 * [--allow-all-tools] [--model m] [--add-dir d]...}. {@code --allow-all-tools} needs both file edits and the
 * explicit opt-in ({@code copilot_exec_allow_all_tools}); otherwise the CLI's approval gate stays on.
 * {@code COPILOT_ALLOW_ALL} is stripped from the child and {@code COPILOT_HOME} isolated when a home is set.
 */
public final class CopilotExecAgent extends AbstractExecAgent {
    private final String path;
    private final String home;
    private final boolean allowAllTools;
    private final boolean allowFileEdits;
    private final List<Path> addDirs;

    private CopilotExecAgent(Builder b) {
        super(b);
        this.path = b.executable();
        this.home = b.home;
        this.allowAllTools = b.allowAllTools;
        this.allowFileEdits = b.allowFileEdits;
        this.addDirs = List.copyOf(b.addDirs);
        addDirs.forEach(AbstractExecAgent::refuseDeniedData);
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "copilot_exec"; }

    @Override protected String prefix() { return "copilot"; }

    List<String> command(Path ws, String prompt) { return command(ws, prompt, List.of()); }

    /** {@code extra}: the task's validated add-dirs after the workspace (data directories, image folders). */
    List<String> command(Path ws, String prompt, List<Path> extra) {
        List<String> cmd = new ArrayList<>(List.of(path, "-p", execPrompt(prompt, allowFileEdits), "--output-format", "json", "--stream", "off",
                "--no-color", "--log-level", "none", "-C", ws.toString(), "--disable-builtin-mcps", "--no-custom-instructions"));
        if (allowFileEdits && allowAllTools) cmd.add("--allow-all-tools");
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        java.util.LinkedHashSet<Path> dirs = new java.util.LinkedHashSet<>(extra);
        dirs.addAll(addDirs);
        for (Path d : dirs) cmd.addAll(List.of("--add-dir", d.toString()));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        List<Path> dirs = addDirs(ws, task);
        Proc.Result r = exec(command(ws, prompt, dirs.subList(1, dirs.size())), ws, CopilotChatModel.childEnv(env, home), null, timeout);
        String raw = rawOutput(r);
        ParsedTrace t = CopilotStream.parse(r.stdout());
        if (r.timedOut()) return new Attempt(raw, t, "", Outcome.FAILED, "copilot_exec: timed out after " + timeout.toSeconds() + "s");
        if (r.exitCode() != 0) return new Attempt(raw, t, "", Outcome.FAILED, exitFailure("Copilot CLI", r));
        if (t.finalText().isEmpty()) {
            String tail = raw.strip();
            return new Attempt(raw, t, "", Outcome.EMPTY, "Copilot CLI returned no response: "
                    + (tail.length() > 4000 ? tail.substring(tail.length() - 4000) : tail));
        }
        return new Attempt(raw, t, t.finalText(), Outcome.OK, "");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        long calls = t.steps().stream().filter(s -> s.kind() == TraceStep.Kind.TOOL_CALL).count();
        return "Copilot CLI Trace Summary\n- final answer format: " + answerFormat(text) + "\n- final response chars: " + text.length()
                + "\n- tool calls: " + calls + "\n- errors: " + errorLines(raw) + "\n";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private String home;
        private boolean allowAllTools;
        private boolean allowFileEdits;
        private List<Path> addDirs = List.of();

        Builder() { super("", ModelKey.COPILOT_EXEC_PATH.text()); }

        public Builder home(String h) { this.home = h; return this; }
        public Builder allowAllTools(boolean b) { this.allowAllTools = b; return this; }
        public Builder allowFileEdits(boolean b) { this.allowFileEdits = b; return this; }
        public Builder addDirs(List<Path> d) { this.addDirs = d; return this; }

        public CopilotExecAgent build() { return new CopilotExecAgent(this); }
    }
}
