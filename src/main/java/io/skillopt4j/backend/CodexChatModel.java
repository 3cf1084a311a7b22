package io.skillopt4j.backend;

import io.skillopt4j.internal.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.CliPrompt;
import io.skillopt4j.backend.internal.CodexStream;
import io.skillopt4j.backend.internal.HttpErrors;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Thread-safe. {@code codex_exec} in the chat (optimizer) role: {@code codex exec --json --ephemeral
 * -c approval_policy="never" --sandbox <s> --skip-git-repo-check --cd <dir> --model <m>
 * --output-last-message <tmp>/last_message.txt -c sandbox_workspace_write.network_access=<b>
 * -c web_search="<live|disabled>" [--profile p] [-c model_reasoning_effort="e"] [--output-schema f]
 * [--image f]... -} with the prompt on stdin. Unlike upstream, {@code --cd} defaults to the per-call temp
 * dir rather than the process working directory, so the optimizer cannot write into the repository.
 */
public final class CodexChatModel extends AbstractChatModel {
    private final CodexSettings s;
    private final Map<String, String> env;

    private CodexChatModel(Builder b) {
        super("codex_exec", b);
        this.s = b.settings == null ? CodexSettings.defaults() : b.settings;
        this.env = b.env == null ? System.getenv() : Map.copyOf(b.env);
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
        return new java.util.LinkedHashMap<>(Map.of("sandbox", s.sandbox(), "profile", s.profile()));
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("skillopt_codex_");
            boolean structured = !r.tools().isEmpty();
            if (structured) Files.writeString(tmp.resolve("schema.json"), Json.line(CliPrompt.toolSchema()), StandardCharsets.UTF_8);
            List<Path> images = CliPrompt.writeImages(r, tmp);
            String system = CliPrompt.system(r);
            String body = CliPrompt.body(r, "tools", structured, List.of());
            String prompt = system.isEmpty() ? body : system + "\n\n" + body; // codex has no system channel
            Proc.Result res;
            try {
                res = Proc.run(command(tmp, r.reasoningEffort(), structured, images), tmp,
                        Proc.scrubbedEnv(env, CodexSettings.CHILD_ENV, Map.of()), prompt, r.timeout());
            } catch (IOException e) {
                throw new BackendException.NonRetriable(backend, 0, backend + ": cannot run Codex CLI '" + s.path() + "' (set CODEX_EXEC_PATH): " + e.getMessage(), e);
            }
            if (res.timedOut()) throw new BackendException.Retriable(backend, 0, backend + ": Codex CLI timed out after " + r.timeout().toSeconds() + "s", null);
            ParsedTrace t = CodexStream.parseJsonl(res.stdout());
            if (res.exitCode() != 0) {
                String why = !t.error().isEmpty() ? t.error() : !res.stderr().isBlank() ? res.stderr() : res.stdout();
                throw new BackendException.Retriable(backend, 0, backend + ": Codex CLI failed with exit code " + res.exitCode() + ": " + clip(why), null);
            }
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
        } catch (IOException e) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": cannot prepare temp dir: " + e.getMessage(), e);
        } finally {
            AtomicFiles.deleteTreeQuietly(tmp);
        }
    }

    static String clip(String s) {
        String t = HttpErrors.oneLine(Redactor.scrub(s == null ? "" : s));
        return t.length() > 4000 ? t.substring(0, 4000) + "..." : t;
    }

    @Override public String toString() { return "CodexChatModel[path=" + s.path() + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private CodexSettings settings;
        private Map<String, String> env;

        private Builder() { model = "gpt-4o"; }

        public Builder settings(CodexSettings s) { this.settings = s; return this; }
        public Builder env(Map<String, String> e) { this.env = e; return this; }

        @Override public CodexChatModel build() { return new CodexChatModel(this); }
    }
}
