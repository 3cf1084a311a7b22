package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.HttpErrors;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Thread-safe. The harness every exec backend shares ({@link #run} is the template): it prepares the workspace, runs
 * {@link #attempt}s, extracts the {@code <answer>}, persists the scrubbed traces and meters usage (target/rollout).
 *
 * <p>An attempt that answered nothing is asked again with upstream's retry note ({@code emptyResponseRetries}); a
 * failed one is retried only when its {@link BackendException} is retriable ({@code failureRetries}), and when the
 * last attempt failed {@link #run} throws it after persisting the traces, so a failed call is never an answer.
 * The task's timeout bounds all attempts together, less a reserve for writing the traces.
 */
public abstract class AbstractExecAgent implements ExecAgent {
    private static final Pattern ANSWER = Pattern.compile("(?is)<answer>(.*?)</answer>");
    /** Retries of an attempt that failed retriably (timeouts, overload, 5xx): three attempts in all. */
    public static final int DEFAULT_FAILURE_RETRIES = 2;
    private static final Duration MIN_ATTEMPT = CallDeadline.MIN_ATTEMPT;
    /** Upstream's retry note, appended from the second attempt on. */
    private static final String RETRY_NOTE = "\n\nNote: the previous run returned an empty final response. Re-read task.md, "
            + ".agents/skills/skillopt-target/SKILL.md and, if present, ATTACHMENTS.md, then answer inside <answer>...</answer>.";

    protected enum Outcome { OK, EMPTY, FAILED }

    /** Immutable. One attempt; {@code failure} is the typed failure of a FAILED one, which {@link #run} retries or throws. */
    protected record Attempt(String raw, ParsedTrace parsed, String text, Outcome outcome, String error, BackendException failure) {
        public static Attempt ok(String raw, ParsedTrace parsed, String text) { return new Attempt(raw, parsed, text, Outcome.OK, "", null); }

        /** No final response ({@code why}): asked again with the retry note. */
        public static Attempt empty(String raw, ParsedTrace parsed, String why) { return new Attempt(raw, parsed, "", Outcome.EMPTY, why, null); }

        public static Attempt failed(String raw, ParsedTrace parsed, BackendException failure) {
            return new Attempt(raw, parsed, "", Outcome.FAILED, failure.getMessage(), failure);
        }
    }

    protected final String model;
    /** The CLI executable (null where a backend keeps it elsewhere). */
    protected final String path;
    protected final Map<String, String> env;
    protected final UsageMeter meter;
    protected final int emptyResponseRetries;
    protected final Duration defaultTimeout;
    protected final int failureRetries;
    protected final Backoff backoff;
    /** How long a 401/403 of the provider fails the next tasks at once, without starting the CLI. */
    static final Duration REFUSAL_MEMORY = Duration.ofSeconds(30);
    private record Refusal(BackendException failure, long at) {}
    private volatile Refusal refusal;

    /** {@code emptyResponseRetries} overrides the builder's where the backend keeps it elsewhere. */
    protected AbstractExecAgent(Builder<?> b, int emptyResponseRetries) {
        this.model = b.model == null ? "" : b.model;
        this.path = b.path == null || b.path.isBlank() ? b.defaultPath : b.path;
        this.env = b.env == null ? System.getenv() : Map.copyOf(b.env);
        this.meter = b.meter == null ? new UsageMeter() : b.meter;
        this.emptyResponseRetries = Math.max(0, emptyResponseRetries);
        this.defaultTimeout = b.timeout == null ? Duration.ofSeconds(120) : b.timeout;
        this.failureRetries = Math.max(0, b.failureRetries);
        this.backoff = b.backoff == null ? Backoff.DEFAULT : b.backoff;
    }

    protected AbstractExecAgent(Builder<?> b) { this(b, b.emptyResponseRetries); }

    @Override public String model() { return model; }

    /** The trace file prefix (codex, claude, cursor, copilot) and attempt marker name. */
    protected abstract String prefix();

    protected abstract Attempt attempt(ExecTask task, Path workspace, String prompt, int attemptNo, Duration timeout) throws IOException;

    protected abstract String summary(String combinedRaw, ParsedTrace parsed, String finalText);

    /** The raw text as persisted (Cursor sanitises it). */
    protected String persistable(String raw) { return raw; }

    @Override public final ExecResult run(ExecTask task) {
        Objects.requireNonNull(task, "task");
        refuseDeniedData(task.workspace());
        Refusal r = refusal;
        // a provider that just refused our credentials refuses them for every item: don't start one CLI per item
        if (r != null && System.nanoTime() - r.at() < REFUSAL_MEMORY.toNanos()) throw r.failure();
        Path traceDir = task.traceDir() != null ? task.traceDir() : task.workspace().toAbsolutePath().getParent();
        prepareWorkspace(task);
        long t0 = System.nanoTime();
        Long deadline = task.timeout() == null ? null : t0 + task.timeout().toNanos() - CallDeadline.reserve(task.timeout()).toNanos();
        List<String> raws = new ArrayList<>();
        Attempt last = null;
        int empties = 0, failures = 0;
        for (int a = 1; ; a++) {
            Duration timeout = defaultTimeout;
            if (deadline != null) {
                long left = deadline - System.nanoTime();
                if (a > 1 && left < MIN_ATTEMPT.toNanos()) break; // no time for another attempt: the last one stands
                timeout = Duration.ofNanos(Math.max(MIN_ATTEMPT.toNanos(), Math.min(left, defaultTimeout.toNanos())));
            }
            String prompt = last != null && last.outcome() == Outcome.EMPTY ? task.prompt() + RETRY_NOTE : task.prompt();
            try {
                last = attempt(task, task.workspace(), prompt, a, timeout);
            } catch (IOException e) {
                last = Attempt.failed("", null, AgentErrors.of(backend(), backend() + ": CLI could not be executed: " + e.getMessage(), false));
            }
            raws.add("===== " + prefix().toUpperCase(java.util.Locale.ROOT) + " CLI ATTEMPT " + a + " =====\n" + last.raw());
            if (last.outcome() == Outcome.OK) break;
            if (last.outcome() == Outcome.EMPTY && empties++ >= emptyResponseRetries) break;
            if (last.outcome() == Outcome.FAILED) {
                if (!(failure(last) instanceof BackendException.Retriable) || failures >= failureRetries) break;
                Duration wait = backoff.delay(failures++, null);
                if (deadline != null && System.nanoTime() + wait.toNanos() + MIN_ATTEMPT.toNanos() > deadline) break;
                Backoff.sleep(wait);
            }
            if (Thread.currentThread().isInterrupted()) break;
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - t0);
        ParsedTrace parsed = last.parsed() == null ? new ParsedTrace(List.of(), "", Usage.ZERO, false, false, "", 0, Map.of()) : last.parsed();
        String text = last.outcome() == Outcome.FAILED || last.text() == null ? "" : last.text();
        boolean ok = last.outcome() == Outcome.OK;
        String error = ok ? "" : HttpErrors.oneLine(Redactor.scrub(last.error() == null || last.error().isBlank()
                ? backend() + ": returned an empty final response after " + raws.size() + " attempt(s)" : last.error()));
        // partial traces are kept for a failed run too: they are how the user sees what the CLI did
        persist(traceDir, String.join("\n\n", raws), parsed, text);
        meter.record("target", "rollout", model, parsed.usage(), latency);
        if (last.outcome() == Outcome.FAILED) {
            BackendException f = AgentErrors.afterAttempts(failure(last), raws.size());
            if (f.status() == 401 || f.status() == 403) refusal = new Refusal(f, System.nanoTime());
            throw f;
        }
        return new ExecResult(extractAnswer(text), text, parsed.steps(), parsed.usage(), latency, ok, error,
                ClaudeCliChatModel.reportedCost(parsed));
    }

    /** The typed failure of a failed attempt; an untyped one is retriable only when it timed out (no retry on a guess). */
    private BackendException failure(Attempt a) {
        if (a.failure() != null) return a.failure();
        String msg = a.error() == null || a.error().isBlank() ? backend() + ": the CLI failed" : a.error();
        boolean retriable = msg.contains("timed out");
        return AgentErrors.of(backend(), msg.startsWith(backend()) ? msg : backend() + ": " + msg, retriable);
    }

    /** Returns the text inside the last {@code <answer>} tag, or the whole text when there is none. */
    public static String extractAnswer(String text) {
        String t = text == null ? "" : text;
        return ANSWER.matcher(t).results().reduce((first, next) -> next).map(m -> m.group(1).strip()).orElse(t.strip());
    }

    /** Renders upstream's SKILL.md: front matter, heading, Dynamic Guidance. */
    private static String renderSkillMd(String skill) {
        String body = skill == null || skill.isBlank() ? "No task-specific guidance yet; solve the task carefully." : skill.strip();
        return "---\nname: \"skillopt-target\"\ndescription: \"Task guidance optimized by SkillOpt; read it before working on task.md.\""
                + "\n---\n\n# ReflACT Target Skill\n\n## Dynamic Guidance\n\n" + body + "\n";
    }

    private void prepareWorkspace(ExecTask task) {
        Path ws = task.workspace();
        AtomicFiles.deleteTreeQuietly(ws);
        if (!nativeSkill(task)) AtomicFiles.writeString(ws.resolve(".agents/skills/skillopt-target/SKILL.md"), renderSkillMd(task.skill()));
        String taskText = task.extraFiles().getOrDefault("task.md", task.prompt());
        if (!taskText.isEmpty()) AtomicFiles.writeString(ws.resolve("task.md"), taskText);
        for (Map.Entry<String, String> e : task.extraFiles().entrySet()) {
            Path p = ws.resolve(e.getKey()).normalize();
            if (!p.startsWith(ws.normalize())) throw new IllegalArgumentException("extra file escapes the workspace: " + e.getKey());
            AtomicFiles.writeString(p, e.getValue());
        }
        attach(ws, task.images());
    }

    /** Upstream's attachments: each image copied to attachments/NN_<name>, listed in ATTACHMENTS.md; a missing one fails. */
    private static void attach(Path ws, List<Path> images) {
        if (images.isEmpty()) return;
        StringBuilder list = new StringBuilder("# Attachments\n\nUse these local files when the task refers to attached images or documents.\n\n");
        for (int i = 1; i <= images.size(); i++) {
            Path src = images.get(i - 1).toAbsolutePath().normalize();
            if (!Files.isRegularFile(src)) throw new UncheckedIOException(new java.io.FileNotFoundException(src.toString()));
            String base = src.getFileName() == null ? "image_" + i : src.getFileName().toString();
            Path dst = ws.resolve("attachments").resolve(String.format("%02d_%s", i, base));
            try {
                Files.createDirectories(dst.getParent());
                Files.copy(src, dst, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot attach " + src, e);
            }
            list.append("- `").append(ws.relativize(dst)).append("` (source: `").append(src).append("`)\n");
        }
        AtomicFiles.writeString(ws.resolve("ATTACHMENTS.md"), list.toString());
    }

    /** Upstream's {@code _validated_add_dirs}: the workspace, data directories, image folders; validated, de-duplicated. */
    protected static List<Path> addDirs(Path ws, ExecTask task) {
        java.util.LinkedHashSet<Path> out = new java.util.LinkedHashSet<>();
        out.add(validated(ws));
        for (Path d : task.dataDirs()) out.add(validated(d));
        for (Path img : task.images()) out.add(validated(img.toAbsolutePath().getParent() == null ? ws : img.toAbsolutePath().getParent()));
        return List.copyOf(out);
    }

    /** The real path of {@code p} (absolute when missing), after the denied-data check. */
    protected static Path validated(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        try {
            abs = abs.toRealPath();
        } catch (IOException missing) {
            // upstream's realpath also accepts paths that do not exist yet
        }
        refuseDeniedData(abs);
        return abs;
    }

    static void refuseDeniedData(Path p) {
        for (Path part : p.toAbsolutePath().normalize()) {
            if (part.toString().matches("officeqa_split|sealqa_split")) {
                throw new IllegalArgumentException("Refusing to expose denied data directory to exec backend: " + p);
            }
        }
    }

    /** True when the skill is installed where Claude Code discovers it (native delivery): no {@code .agents/} copy. */
    public static boolean nativeSkill(ExecTask task) {
        return task.extraFiles().keySet().stream().anyMatch(k -> k.startsWith(".claude/skills/"));
    }

    /** The exec wrapper of native delivery: the skill is discovered by the agent, never named in the prompt. */
    protected static String nativeExecPrompt(String prompt) {
        return "You are working in a prepared workspace. Use the workspace files.\n"
                + "First read task.md (and ATTACHMENTS.md if present). Do not ask for permission.\n"
                + "Do not modify files.\n"
                + "Return only the final answer, keeping any <answer>...</answer> tags.\n\n" + prompt;
    }

    /** Upstream's exec wrapper (Claude CLI, Cursor, Copilot): how to use the workspace files. */
    protected static String execPrompt(String prompt, boolean allowFileEdits) {
        String p = prompt.replace("use the skillopt-target skill", "read .agents/skills/skillopt-target/SKILL.md directly; do not call a Skill tool")
                .replace("Use the skillopt-target skill", "Read .agents/skills/skillopt-target/SKILL.md directly; do not call a Skill tool");
        return "You are working in a prepared workspace. Use the workspace files.\n"
                + "First read task.md and .agents/skills/skillopt-target/SKILL.md (and ATTACHMENTS.md if present).\n"
                + "Do not call a Skill tool: the guidance is a local file. Do not ask for permission.\n"
                + (allowFileEdits ? "You may modify workspace files to create the requested artifact.\n" : "Do not modify files.\n")
                + "Return only the final answer, keeping any <answer>...</answer> tags.\n\n" + p;
    }

    private void persist(Path dir, String combined, ParsedTrace parsed, String text) {
        try {
            Files.createDirectories(dir);
            Path rawFile = dir.resolve(prefix() + "_raw.txt");
            String all = Redactor.scrub(persistable(combined));
            String prev = Files.isRegularFile(rawFile) ? Files.readString(rawFile, StandardCharsets.UTF_8) : "";
            if (!prev.isBlank()) all = prev + "\n\n===== TURN BREAK =====\n\n" + all;
            AtomicFiles.writeString(rawFile, all);
            AtomicFiles.writeString(dir.resolve(prefix() + "_trace_summary.txt"), Redactor.scrub(summary(all, parsed, text)));
            AtomicFiles.writeString(dir.resolve(prefix() + "_trace_steps.txt"),
                    Redactor.scrub(TraceSteps.format(parsed.steps(), TraceSteps.DEFAULT_MAX_CHARS)) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write traces under " + dir, e);
        }
    }

    /** The typed failure a CLI run reported, or null: the provider's status when the CLI names one, else {@code other}
     *  (null: the CLI's error and exit code); a non-zero exit without an error event fails with what the CLI printed. */
    static BackendException cliFailure(String backend, String cli, String provider, ParsedTrace t, Proc.Result r,
                                       BackendException other) {
        if (!t.isError()) return r.exitCode() == 0 ? null : AgentErrors.failed(backend, cli, r.exitCode(), r.stderr().isBlank() ? r.stdout() : r.stderr());
        String status = t.meta().getOrDefault("error_status", "");
        if (!status.isEmpty()) return AgentErrors.api(backend, provider, Integer.parseInt(status), t.error());
        return other != null ? other : AgentErrors.failed(backend, cli, r.exitCode(), t.error());
    }

    /** The child's stdout, then its stderr under a {@code [stderr]} line, as the raw trace keeps them. */
    protected static String rawOutput(Proc.Result r) {
        return r.stdout() + (r.stderr().isBlank() ? "" : (r.stdout().isEmpty() ? "" : "\n") + "[stderr]\n" + r.stderr());
    }

    /** A finished run judged as the agents do: timed out, a typed failure it reported, no final {@code text} ({@code why}),
     *  else answered with {@code text}. */
    protected final Attempt judged(Proc.Result r, ParsedTrace t, Supplier<BackendException> timedOut,
                                   Supplier<BackendException> failure, String text, String why) {
        String raw = rawOutput(r);
        if (r.timedOut()) return Attempt.failed(raw, t, timedOut.get());
        BackendException f = failure.get();
        if (f != null) return Attempt.failed(raw, t, f);
        return text.isEmpty() ? Attempt.empty(raw, t, backend() + ": " + why) : Attempt.ok(raw, t, text);
    }

    /** "tagged", "plain_text" or "missing". */
    static String answerFormat(String text) {
        if (text == null || text.isBlank()) return "missing";
        return ANSWER.matcher(text).find() ? "tagged" : "plain_text";
    }

    /** Up to 3 raw lines mentioning error/traceback joined by " | ", or "none". */
    static String errorLines(String raw) {
        List<String> out = java.util.Arrays.stream(raw.split("\\r?\\n")).filter(l -> l.toLowerCase(java.util.Locale.ROOT).contains("error")
                || l.toLowerCase(java.util.Locale.ROOT).contains("traceback")).limit(3).map(String::strip).toList();
        return out.isEmpty() ? "none" : String.join(" | ", out);
    }

    @Override public String toString() { return getClass().getSimpleName() + "[backend=" + backend() + ", model=" + model + "]"; }

    /** Not thread-safe; use once. The executable and retries are ignored where a backend keeps them elsewhere. */
    @SuppressWarnings("unchecked")
    public abstract static class Builder<B extends Builder<B>> {
        String model;
        private String path;
        private final String defaultPath;
        Map<String, String> env;
        UsageMeter meter;
        int emptyResponseRetries = ModelKey.EXEC_EMPTY_RESPONSE_RETRIES.intValue();
        Duration timeout;
        int failureRetries = DEFAULT_FAILURE_RETRIES;
        Backoff backoff = Backoff.DEFAULT;

        protected Builder(String defaultModel, String defaultPath) {
            this.model = defaultModel;
            this.path = defaultPath;
            this.defaultPath = defaultPath;
        }

        public B model(String m) { this.model = m; return (B) this; }
        /** The CLI executable (default: its name on PATH). */
        public B path(String p) { this.path = p; return (B) this; }
        /** The child's environment before scrubbing (default: this process's). */
        public B env(Map<String, String> e) { this.env = e; return (B) this; }
        public B meter(UsageMeter m) { this.meter = m; return (B) this; }
        public B emptyResponseRetries(int n) { this.emptyResponseRetries = n; return (B) this; }
        /** Timeout of one attempt ({@code exec_timeout}); a task's own timeout bounds all its attempts together. */
        public B timeout(Duration t) { this.timeout = t; return (B) this; }
        /** Retries of an attempt that failed retriably: rate limit, overload, 5xx, timeout (default 2). */
        public B failureRetries(int n) { this.failureRetries = n; return (B) this; }
        /** Wait between those retries (default 1 s doubling up to 30 s). */
        public B backoff(Backoff b) { this.backoff = b; return (B) this; }

        public abstract ExecAgent build();
    }
}
