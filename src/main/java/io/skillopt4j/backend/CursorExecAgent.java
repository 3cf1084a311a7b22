package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.CursorStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Thread-safe. {@code cursor_exec}: cursor-agent in the workspace, the prompt on stdin. Persisted traces are
 * sanitised (prompts, file contents and answers omitted).
 */
public final class CursorExecAgent extends AbstractExecAgent {
    private final String sandbox;
    private final boolean allowFileEdits;
    private final List<Path> addDirs;

    private CursorExecAgent(Builder b) {
        super(b);
        String sb = b.sandbox == null || b.sandbox.isBlank() ? ModelKey.CURSOR_EXEC_SANDBOX.text() : b.sandbox.trim();
        if (!sb.equals("enabled") && !sb.equals("disabled")) throw ConfigException.badValue("", "cursor_exec_sandbox", b.sandbox, "enabled or disabled");
        if (b.allowFileEdits && sb.equals("disabled")) {
            throw new ConfigException("cursor_exec: file edits need cursor_exec_sandbox=enabled (--force is never combined with a disabled sandbox)");
        }
        this.sandbox = sb;
        this.allowFileEdits = b.allowFileEdits;
        this.addDirs = List.copyOf(b.addDirs);
        addDirs.forEach(AbstractExecAgent::refuseDeniedData);
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "cursor_exec"; }

    @Override protected String prefix() { return "cursor"; }

    @Override protected String persistable(String raw) { return CursorStream.sanitize(raw); }

    /** {@code extra}: the task's validated add-dirs; the workspace itself is never repeated. */
    List<String> command(Path ws, List<Path> extra) {
        List<String> cmd = new ArrayList<>(List.of(path, "-p", "--output-format", "stream-json", "--trust", "--workspace", ws.toString(),
                "--sandbox", sandbox));
        if (allowFileEdits) cmd.add("--force");
        else cmd.addAll(List.of("--mode", "ask"));
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        Stream.concat(extra.stream(), addDirs.stream()).distinct().filter(d -> !d.equals(ws) && !d.equals(validated(ws)))
                .forEach(d -> cmd.addAll(List.of("--add-dir", d.toString())));
        return cmd;
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        List<Path> dirs = addDirs(ws, task);
        Proc.Result r = Proc.run(command(ws, dirs.subList(1, dirs.size())), ws, Proc.scrubbedEnv(env, Set.of("CURSOR_API_KEY", "CURSOR_*"), Map.of()),
                execPrompt(prompt, allowFileEdits), timeout);
        String raw = rawOutput(r);
        ParsedTrace t = CursorStream.parse(r.stdout());
        if (r.timedOut()) return new Attempt(raw, t, "", Outcome.FAILED, "cursor_exec: timed out after " + timeout.toSeconds() + "s", null);
        if (r.exitCode() != 0) {
            String out = CursorStream.redact((r.stderr().isBlank() ? r.stdout() : r.stderr()).strip());
            return new Attempt(raw, t, "", Outcome.FAILED, "Cursor Agent failed with exit code " + r.exitCode() + ": "
                    + (out.length() > 4000 ? out.substring(0, 4000) : out), null);
        }
        if (!t.terminal()) return Attempt.empty(raw, t, "cursor_exec: did not emit a terminal result");
        if (t.isError()) return new Attempt(raw, t, "", Outcome.FAILED, "cursor_exec: " + t.error(), null);
        if (t.finalText().isBlank()) return Attempt.empty(raw, t, "cursor_exec: returned an empty terminal result");
        return Attempt.ok(raw, t, t.finalText().strip());
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        Map<String, String> m = t.meta();
        return "Cursor Agent Trace Summary\n- model: " + m.getOrDefault("model", "") + "\n- permission mode: " + m.getOrDefault("permissionMode", "")
                + "\n- session id: " + m.getOrDefault("session_id", "") + "\n- tool calls: " + m.getOrDefault("tool_calls", "0")
                + "\n- duration ms: " + m.getOrDefault("duration_ms", "0") + "\n- terminal error: " + (t.isError() ? "yes" : "no")
                + "\n- final response chars: " + text.length() + "\n";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private String sandbox = ModelKey.CURSOR_EXEC_SANDBOX.text();
        private boolean allowFileEdits;
        private List<Path> addDirs = List.of();

        Builder() { super("composer-2.5", ModelKey.CURSOR_EXEC_PATH.text()); }

        public Builder sandbox(String s) { this.sandbox = s; return this; }
        public Builder allowFileEdits(boolean b) { this.allowFileEdits = b; return this; }
        public Builder addDirs(List<Path> d) { this.addDirs = d; return this; }

        public CursorExecAgent build() { return new CursorExecAgent(this); }
    }
}
