package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.ClaudeStream;
import io.skillopt4j.backend.internal.CodexStream;
import io.skillopt4j.backend.internal.CopilotStream;
import io.skillopt4j.backend.internal.CursorStream;
import io.skillopt4j.backend.internal.OpenCodeStream;
import io.skillopt4j.config.FlatConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Thread-safe (stateless). Parses raw CLI streams into {@link TraceStep}s and formats them for people and for the
 * analyst prompt ({@link #analystSection}).
 *
 * <pre>{@code
 * ParsedTrace t = TraceSteps.parse("claude", Files.readString(raw));
 * System.out.println(TraceSteps.format(t.steps(), 4000));
 * }</pre>
 */
public final class TraceSteps {
    public static final int DEFAULT_MAX_CHARS = 4000;
    public static final String TRUNCATION_MARKER = "\n...[trace steps truncated]...";
    public static final String CLAUDE_STEPS_FILE = "claude_trace_steps.txt";
    public static final String CODEX_STEPS_FILE = "codex_trace_steps.txt";

    private TraceSteps() {}

    /** Parses {@code raw} as {@code format}: claude, codex, cursor, copilot or opencode. */
    public static ParsedTrace parse(String format, String raw) {
        return switch (format == null ? "" : format.trim().toLowerCase(Locale.ROOT)) {
            case "claude", "claude_code_exec", "claude_chat" -> ClaudeStream.parse(raw);
            case "codex", "codex_exec" -> CodexStream.parse(raw);
            case "cursor", "cursor_exec" -> CursorStream.parse(raw);
            case "copilot", "copilot_exec", "copilot_chat" -> CopilotStream.parse(raw);
            case "opencode", "opencode_exec" -> OpenCodeStream.parse(raw);
            default -> throw ConfigException.badValue("", "format", format, "one of claude, codex, cursor, copilot, opencode");
        };
    }

    /** One line per step ({@code [i] kind tool: text}), cut to {@code maxChars} with {@link #TRUNCATION_MARKER}. */
    public static String format(List<TraceStep> steps, int maxChars) {
        List<String> lines = new ArrayList<>();
        for (TraceStep s : steps) {
            String text = s.text().replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
            String result = s.kind() != TraceStep.Kind.TOOL_RESULT ? ""
                    : " (" + s.chars() + " chars" + (s.truncated() ? ", truncated" : "") + ")";
            lines.add("[" + (lines.size() + 1) + "] " + s.kind().wire() + (s.tool().isEmpty() ? "" : " " + s.tool()) + result
                    + ": " + (text.isEmpty() ? "(empty)" : text));
        }
        String out = String.join("\n", lines);
        if (maxChars > 0 && out.length() > maxChars) out = out.substring(0, maxChars) + TRUNCATION_MARKER;
        return out;
    }

    /**
     * The "Claude/Codex Trace Steps" section of the analyst prompt for one rollout, or empty when the target is neither,
     * its gate ({@code claude_trace_to_optimizer}, {@code codex_trace_to_optimizer}) is off, or no steps file was written.
     */
    public static Optional<String> analystSection(FlatConfig cfg, String targetBackend, Path predictionDir) {
        String t = targetBackend == null ? "" : targetBackend.trim().toLowerCase(Locale.ROOT);
        boolean claude = t.equals("claude_code_exec") && Setting.bool("claude_trace_to_optimizer").of(cfg);
        if (!claude && !(t.equals("codex_exec") && Setting.bool("codex_trace_to_optimizer").of(cfg))) return Optional.empty();
        Path f = predictionDir.resolve(claude ? CLAUDE_STEPS_FILE : CODEX_STEPS_FILE);
        if (!Files.isRegularFile(f)) return Optional.empty();
        try {
            String body = Files.readString(f, StandardCharsets.UTF_8).strip();
            String title = claude ? "Claude Trace Steps" : "Codex Trace Steps";
            return body.isEmpty() ? Optional.empty() : Optional.of("#### " + title + "\n" + body);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }
}
