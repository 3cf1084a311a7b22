package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.CopilotSession;
import io.skillopt4j.backend.internal.CopilotStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Thread-safe. {@code copilot_exec}: the Copilot CLI as an agent, the prompt on stdin (without {@code -p}, of any size).
 * {@code --allow-all-tools} needs both file edits and the explicit opt-in; otherwise the CLI's approval gate stays on.
 */
public final class CopilotExecAgent extends AbstractExecAgent {
    private final String home;
    private final boolean allowAllTools;
    private final boolean allowFileEdits;
    private final List<Path> addDirs;

    private CopilotExecAgent(Builder b) {
        super(b);
        this.home = b.home;
        this.allowAllTools = b.allowAllTools;
        this.allowFileEdits = b.allowFileEdits;
        this.addDirs = List.copyOf(b.addDirs);
        addDirs.forEach(AbstractExecAgent::refuseDeniedData);
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "copilot_exec"; }

    @Override protected String prefix() { return "copilot"; }

    /** {@code extra}: the task's validated add-dirs after the workspace. */
    List<String> command(Path ws, List<Path> extra, List<String> session) {
        List<String> cmd = new ArrayList<>(List.of(path, "--output-format", "json", "--stream", "off",
                "--no-color", "--log-level", "none", "-C", ws.toString(), "--disable-builtin-mcps", "--no-custom-instructions"));
        cmd.addAll(session);
        if (allowFileEdits && allowAllTools) cmd.add("--allow-all-tools");
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        Stream.concat(extra.stream(), addDirs.stream()).distinct().forEach(d -> cmd.addAll(List.of("--add-dir", d.toString())));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        List<Path> dirs = addDirs(ws, task);
        Proc.Result r;
        try (CopilotSession session = CopilotSession.open(home, env)) {
            r = Proc.run(command(ws, dirs.subList(1, dirs.size()), session.args()), ws, CopilotChatModel.childEnv(env, session.env()),
                    execPrompt(prompt, allowFileEdits), timeout);
        }
        ParsedTrace t = CopilotStream.parse(r.stdout());
        return judged(r, t, () -> AgentErrors.timeout(backend(), "Copilot CLI", timeout),
                () -> CopilotChatModel.failure(backend(), t, r), t.finalText(), "Copilot CLI returned no response");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        long calls = t.steps().stream().filter(s -> s.kind() == TraceStep.Kind.TOOL_CALL).count();
        return "Copilot CLI Trace Summary\n- final answer format: " + answerFormat(text) + "\n- final response chars: " + text.length()
                + "\n- tool calls: " + calls + "\n- errors: " + (t.isError() ? t.error() : errorLines(raw))
                + "\n- usage: not reported by the Copilot CLI\n";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private String home;
        private boolean allowAllTools;
        private boolean allowFileEdits;
        private List<Path> addDirs = List.of();

        Builder() { super("", ModelKey.COPILOT_EXEC_PATH.text()); }

        /** COPILOT_HOME of the child (blank: a temporary one where no stored login is needed, else the user's). */
        public Builder home(String h) { this.home = h; return this; }
        public Builder allowAllTools(boolean b) { this.allowAllTools = b; return this; }
        public Builder allowFileEdits(boolean b) { this.allowFileEdits = b; return this; }
        public Builder addDirs(List<Path> d) { this.addDirs = d; return this; }

        public CopilotExecAgent build() { return new CopilotExecAgent(this); }
    }
}
