package io.skillopt4j.run;

import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.TraceSteps;
import io.skillopt4j.backend.TraceStep.Kind;
import io.skillopt4j.backend.internal.StreamLines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stateless. Parses exec-target traces under {@code predictions/<id>/}: {@code <backend>_trace_steps.txt}, else
 * {@code <backend>_raw.txt} through the backends' own parsers. Unknown lines and events are skipped, never fatal.
 */
final class TraceFiles {
    private static final List<String> BACKENDS = List.of("claude", "codex", "cursor", "copilot", "opencode");
    /** {@code [i] kind[ tool][ (N chars[, truncated])]: text}, as backend.TraceSteps.format writes it; also {@code [i] kind (Tool): text}. */
    private static final Pattern STEP_LINE = Pattern.compile(
            "^\\[(\\d+)]\\s*(text|tool_call|tool_result|user|codex|exec|assistant|thinking)"
            + "(?:\\s+(?!\\()([^\\s:(]+))?(?:\\s*\\((\\d+) chars?(, truncated)?\\))?(?:\\s*\\(([^)]*)\\))?\\s*:\\s?(.*)$");
    private static final Pattern CHARS = Pattern.compile("\\((\\d+) chars?(?:, truncated)?\\)\\s*$");

    private TraceFiles() {}

    static List<TraceFile> read(RolloutSet set) {
        Path preds = set.dir().resolve("predictions");
        if (!Files.isDirectory(preds)) return List.of();
        try (Stream<Path> s = Files.list(preds)) {
            return s.filter(Files::isDirectory).sorted()
                    .flatMap(p -> BACKENDS.stream().map(b -> readOne(set, p, b)).filter(java.util.Objects::nonNull)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static TraceFile readOne(RolloutSet set, Path pred, String backend) {
        String id = pred.getFileName().toString();
        Path steps = pred.resolve(backend + "_trace_steps.txt");
        if (Files.isRegularFile(steps)) return new TraceFile(set, id, backend, steps, parseSteps(text(steps)));
        Path raw = pred.resolve(backend + "_raw.txt");
        if (!Files.isRegularFile(raw)) return null;
        String rawText = text(raw);
        List<TraceStep> parsed;
        try {
            parsed = TraceSteps.parse(backend, rawText).steps(); // the same parsers the exec backends use
        } catch (RuntimeException e) {
            parsed = List.of();
        }
        // upstream Codex writes a human-readable exec log rather than JSON events
        if (parsed.isEmpty() && backend.equals("codex")) parsed = parseCodexRaw(rawText);
        return new TraceFile(set, id, backend, raw, parsed);
    }

    private static String text(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Parses a step listing; continuation lines belong to the step above. */
    static List<TraceStep> parseSteps(String text) {
        List<TraceStep> out = new ArrayList<>();
        Matcher head = null;
        StringBuilder body = new StringBuilder();
        boolean wholeTruncated = false;
        for (String line : text.replace("\r\n", "\n").split("\n", -1)) {
            Matcher m = STEP_LINE.matcher(line);
            if (m.matches()) {
                if (head != null) out.add(step(head, body.toString()));
                head = m;
                body = new StringBuilder(m.group(7));
            } else if (line.contains("[trace steps truncated]") || line.contains("[trace truncated]")) {
                wholeTruncated = true;
            } else if (head != null) {
                body.append('\n').append(line);
            }
        }
        if (head != null) out.add(step(head, body.toString().stripTrailing()));
        if (wholeTruncated && !out.isEmpty()) {
            TraceStep l = out.remove(out.size() - 1);
            out.add(new TraceStep(l.kind(), l.tool(), l.text(), l.chars(), true));
        }
        return out;
    }

    private static TraceStep step(Matcher m, String body) {
        String k = m.group(2);
        String tool = m.group(3) != null ? m.group(3) : m.group(6) != null ? m.group(6).trim() : k.equals("exec") ? "exec" : "";
        Kind kind = switch (k) {
            case "tool_call", "exec" -> Kind.TOOL_CALL;
            case "tool_result" -> Kind.TOOL_RESULT;
            default -> Kind.TEXT;
        };
        String t = body.strip();
        Matcher c = CHARS.matcher(t);
        int chars = t.length();
        boolean truncated = t.endsWith("…") || t.endsWith("...") || t.contains("[truncated");
        if (c.find()) {
            chars = Integer.parseInt(c.group(1));
            truncated = truncated || c.group(0).contains("truncated");
            t = t.substring(0, c.start()).strip();
        }
        // a count in the header wins; its ", truncated" (group 5) only comes with one
        return new TraceStep(kind, tool, t, m.group(4) != null ? Integer.parseInt(m.group(4)) : Math.max(chars, t.length()),
                truncated || m.group(5) != null);
    }

    /** Codex's human-readable exec log: a step starts at a line that is exactly user, codex or exec. */
    static List<TraceStep> parseCodexRaw(String raw) {
        List<TraceStep> out = new ArrayList<>();
        String type = null;
        List<String> lines = new ArrayList<>();
        for (String line : (raw.replace("\r\n", "\n") + "\nuser").split("\n", -1)) {
            String s = line.strip();
            if (s.equals("user") || s.equals("codex") || s.equals("exec")) {
                if (type != null) addCodex(out, type, lines);
                type = s;
                lines.clear();
            } else if (type != null) {
                lines.add(line);
            }
        }
        return out;
    }

    private static void addCodex(List<TraceStep> out, String type, List<String> lines) {
        if (!type.equals("exec")) {
            String t = String.join("\n", lines).strip();
            if (!t.isEmpty() || type.equals("codex")) out.add(StreamLines.text(t));
            return;
        }
        String cmd = lines.stream().map(String::strip).filter(x -> !x.isEmpty()).findFirst().orElse("");
        out.add(StreamLines.toolCall("exec", cmd));
        int at = lines.stream().map(String::strip).toList().indexOf(cmd);
        String result = String.join("\n", lines.subList(Math.max(at + 1, 0), lines.size())).strip();
        if (!result.isEmpty()) out.add(StreamLines.toolResult("exec", result));
    }
}
