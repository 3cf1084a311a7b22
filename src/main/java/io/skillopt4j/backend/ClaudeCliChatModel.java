package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.ClaudeStream;
import io.skillopt4j.backend.internal.CliPrompt;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code claude_chat} through the Claude Code CLI in print mode, as upstream runs it ({@link #command}),
 * the prompt on stdin in a fresh temp dir; a failure is read from the CLI's own JSON ({@link ClaudeStream#failure}).
 * Also serves {@code claude_code_exec} in the chat (optimizer) role.
 */
public final class ClaudeCliChatModel extends AbstractChatModel {
    private static final Set<String> EFFORTS = Set.of("low", "medium", "high", "xhigh", "max");
    private final String binary;
    private final String permissionMode;
    private final String settingSources;
    private final boolean allowAttachmentRead;
    private final int maxThinkingTokens;

    private ClaudeCliChatModel(Builder b) {
        super(b.backendName, b);
        this.binary = b.binary == null || b.binary.isBlank() ? ModelKey.CLAUDE_CLI_BIN.text() : b.binary;
        this.permissionMode = b.permissionMode == null || b.permissionMode.isBlank() ? ModelKey.CLAUDE_PERMISSION_MODE.text() : b.permissionMode;
        this.settingSources = b.settingSources;
        this.allowAttachmentRead = b.allowAttachmentRead;
        this.maxThinkingTokens = b.maxThinkingTokens;
    }

    public static Builder builder() { return new Builder(); }

    List<String> command(Path tmp, boolean hasSystem, String effort, boolean structured) {
        List<String> cmd = new ArrayList<>(List.of(binary, "-p", "--output-format", "json", "--permission-mode", permissionMode,
                "--add-dir", tmp.toString()));
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        if (settingSources != null && !settingSources.isBlank()) cmd.addAll(List.of("--setting-sources", settingSources));
        if (hasSystem) cmd.addAll(List.of("--append-system-prompt-file", tmp.resolve("system_prompt.txt").toString()));
        String e = effort == null ? "" : effort.trim().toLowerCase(Locale.ROOT);
        if (EFFORTS.contains(e)) cmd.addAll(List.of("--effort", e)); // upstream's rule: anything else is omitted
        if (structured) cmd.addAll(List.of("--json-schema", Json.mapper().valueToTree(CliPrompt.toolSchema()).toString()));
        cmd.add("--no-session-persistence");
        return cmd;
    }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Map.of("permission_mode", permissionMode, "max_thinking_tokens", maxThinkingTokens);
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        return inTempDir("skillopt_claude_", tmp -> {
            String system = CliPrompt.system(r);
            if (!system.isEmpty()) Files.writeString(tmp.resolve("system_prompt.txt"), system, StandardCharsets.UTF_8);
            List<Path> images = CliPrompt.writeImages(r, tmp);
            boolean structured = !r.tools().isEmpty();
            String prompt = CliPrompt.body(r, "compatibility tools", structured, allowAttachmentRead ? images : List.of());
            Map<String, String> childEnv = ClaudeCodeExecAgent.childEnv(env);
            if (maxThinkingTokens > 0) childEnv.put("MAX_THINKING_TOKENS", String.valueOf(maxThinkingTokens));
            Duration timeout = r.timeout() == null ? ModelKey.CLAUDE_CHAT_TIMEOUT.seconds() : r.timeout();
            Path project = ClaudeCodeExecAgent.projectDir(childEnv, tmp);
            Proc.Result res;
            try {
                res = Proc.run(command(tmp, !system.isEmpty(), r.reasoningEffort(), structured), tmp, childEnv, prompt, timeout);
            } catch (IOException e) {
                throw new BackendException.NonRetriable(backend, 0, backend + ": cannot run Claude CLI '" + binary
                        + "' (install Claude Code, set CLAUDE_CLI_BIN, or use claude_chat_transport: api): " + e.getMessage(), e);
            } finally {
                ClaudeCodeExecAgent.dropEmptyProjectDir(project);
            }
            if (res.timedOut()) throw AgentErrors.timeout(backend, "Claude CLI", timeout);
            ParsedTrace t = ClaudeStream.parse(res.stdout());
            // the CLI's own report first: its JSON names the API status; stderr is empty for those
            BackendException failed = ClaudeStream.failure(backend, t, res.exitCode(), res.stderr().isBlank() ? res.stdout() : res.stderr());
            if (failed != null) throw failed;
            if (!t.terminal()) {
                String out = clip(res.stdout(), 500);
                throw new BackendException.Retriable(backend, 0, backend + ": Claude CLI printed no result event" + (out.isEmpty() ? "" : ": " + out), null);
            }
            List<ToolCall> calls = new ArrayList<>();
            String text = t.finalText();
            if (structured) {
                JsonNode s = ClaudeStream.structured(res.stdout());
                if (s == null) s = JsonReply.extractObject(text).orElse(null);
                if (s != null) {
                    text = s.path("content").asText("");
                    int i = 0;
                    for (JsonNode c : s.path("tool_calls")) {
                        JsonNode a = c.path("arguments");
                        calls.add(new ToolCall("claude_tool_" + i++, c.path("name").asText(""), a.isTextual() ? a.asText() : a.toString()));
                    }
                }
            }
            return new ChatResponse(text, calls, t.usage(), res.elapsed(), model, "", Billing.reported(reportedCost(t)));
        });
    }

    /** The CLI's own figure for the call ({@code total_cost_usd}), charged instead of the price table's. */
    static Double reportedCost(ParsedTrace t) {
        String v = t.meta().get("total_cost_usd");
        try {
            return v == null || v.isBlank() ? null : Double.valueOf(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override public String toString() { return "ClaudeCliChatModel[backend=" + backend + ", binary=" + binary + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String backendName = "claude_chat";
        private String binary = ModelKey.CLAUDE_CLI_BIN.text();
        private String permissionMode = ModelKey.CLAUDE_PERMISSION_MODE.text();
        private String settingSources = ModelKey.CLAUDE_SETTING_SOURCES.text();
        private boolean allowAttachmentRead = true;
        private int maxThinkingTokens;

        private Builder() { model = "claude-sonnet-4-6"; timeout = null; }

        public Builder binary(String b) { this.binary = b; return this; }
        public Builder permissionMode(String m) { this.permissionMode = m; return this; }
        /** Blank omits {@code --setting-sources}. */
        public Builder settingSources(String s) { this.settingSources = s; return this; }
        public Builder allowAttachmentRead(boolean b) { this.allowAttachmentRead = b; return this; }
        /** Passed to the child as MAX_THINKING_TOKENS when > 0. */
        public Builder maxThinkingTokens(int n) { this.maxThinkingTokens = n; return this; }
        public Builder backendName(String n) { this.backendName = n; return this; }

        @Override public ClaudeCliChatModel build() { return new ClaudeCliChatModel(this); }
    }
}
