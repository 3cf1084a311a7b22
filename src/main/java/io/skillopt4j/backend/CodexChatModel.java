package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.CliPrompt;
import io.skillopt4j.backend.internal.CodexStream;
import io.skillopt4j.config.ModelKey;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Thread-safe. {@code codex_exec} in the chat (optimizer) role, the prompt on stdin. Unlike upstream, {@code --cd}
 * defaults to the per-call temp dir, so the optimizer cannot write into the repository; and each call has a timeout,
 * so a provider that never answers does not hang a step.
 */
public final class CodexChatModel extends AbstractChatModel {
    private final CodexSettings s;

    private CodexChatModel(Builder b) {
        super("codex_exec", b);
        this.s = b.settings == null ? CodexSettings.defaults() : b.settings;
        s.checkProfile(env);
    }

    public static Builder builder() { return new Builder(); }

    List<String> command(Path tmp, String effort, boolean structured, List<Path> images) {
        Path workdir = s.workingDirectory() == null ? tmp : s.workingDirectory();
        List<String> cmd = new ArrayList<>(List.of(s.path(), "exec", "--json", "--ephemeral", "-c", "approval_policy=\"" + s.approvalPolicy() + "\"",
                "--sandbox", s.sandbox(), "--skip-git-repo-check", "--cd", workdir.toString(), "--model", model,
                "--output-last-message", tmp.resolve("last_message.txt").toString()));
        cmd.addAll(s.overrides());
        if (!s.profile().isBlank()) cmd.addAll(List.of("--profile", s.profile()));
        String e = effort == null || effort.isBlank() ? s.reasoningEffort() : effort;
        if (e != null && !e.isBlank() && !e.equals("none")) cmd.addAll(List.of("-c", "model_reasoning_effort=\"" + e + "\""));
        if (structured) cmd.addAll(List.of("--output-schema", tmp.resolve("schema.json").toString()));
        for (Path p : images) cmd.addAll(List.of("--image", p.toString()));
        cmd.add("-");
        return cmd;
    }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Map.of("sandbox", s.sandbox(), "profile", s.profile());
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        return inTempDir("skillopt_codex_", tmp -> {
            boolean structured = !r.tools().isEmpty();
            if (structured) Files.writeString(tmp.resolve("schema.json"), Json.line(CliPrompt.toolSchema()), StandardCharsets.UTF_8);
            List<Path> images = CliPrompt.writeImages(r, tmp);
            String system = CliPrompt.system(r);
            String body = CliPrompt.body(r, "tools", structured, List.of());
            String prompt = system.isEmpty() ? body : system + "\n\n" + body; // codex has no system channel
            Duration timeout = r.timeout() == null ? ModelKey.CODEX_CHAT_TIMEOUT.seconds() : r.timeout();
            Proc.Result res;
            try {
                res = Proc.run(command(tmp, r.reasoningEffort(), structured, images), tmp,
                        Proc.scrubbedEnv(env, CodexSettings.CHILD_ENV, Map.of()), prompt, timeout);
            } catch (IOException e) {
                throw AgentErrors.cannotRun(backend, s.path(), "CODEX_EXEC_PATH", e);
            }
            ParsedTrace t = CodexStream.parseJsonl(res.stdout());
            if (res.timedOut()) throw timeout(backend, t, timeout);
            BackendException failure = failure(backend, t, res);
            if (failure != null) throw failure;
            Path last = tmp.resolve("last_message.txt");
            String text = Files.isRegularFile(last) ? Files.readString(last, StandardCharsets.UTF_8).strip() : "";
            if (text.isEmpty()) text = t.finalText().strip();
            if (text.isEmpty()) throw new BackendException.Retriable(backend, 0, backend + ": Codex returned an empty final message", null);
            List<ToolCall> calls = new ArrayList<>();
            if (structured) {
                JsonNode n = JsonReply.extractObject(text).orElseThrow(() -> new BackendException.Retriable(backend, 0,
                        backend + ": structured reply is not JSON", null));
                text = n.path("content").asText("");
                for (JsonNode c : n.path("tool_calls")) {
                    JsonNode a = c.path("arguments");
                    calls.add(new ToolCall("tool_" + calls.size() + "_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(0, 12),
                            c.path("name").asText(""), a.isTextual() ? a.asText() : a.toString()));
                }
                if ("required".equals(r.toolChoice()) && calls.isEmpty()) {
                    throw new BackendException.Retriable(backend, 0, backend + ": tool_choice=required but no tool call was returned", null);
                }
            }
            return new ChatResponse(text, calls, t.usage(), res.elapsed(), model, "");
        });
    }

    /** The typed failure a Codex run reported, or null. */
    static BackendException failure(String backend, ParsedTrace t, Proc.Result r) {
        return AbstractExecAgent.cliFailure(backend, "Codex CLI", "Codex model provider's", t, r, null);
    }

    /** A timed-out attempt, with what Codex last said (an unreachable provider shows as reconnect errors until then). */
    static BackendException timeout(String backend, ParsedTrace t, Duration timeout) {
        BackendException e = AgentErrors.timeout(backend, "Codex CLI", timeout);
        return t.error().isEmpty() ? e : AgentErrors.of(backend, e.getMessage() + "; it last said: " + AgentErrors.tail(t.error(), 300), true);
    }

    @Override public String toString() { return "CodexChatModel[path=" + s.path() + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private CodexSettings settings;

        private Builder() { model = "gpt-4o"; }

        public Builder settings(CodexSettings s) { this.settings = s; return this; }

        @Override public CodexChatModel build() { return new CodexChatModel(this); }
    }
}
