package io.skillopt4j.run;

import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.TraceStep.Kind;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stateless. Parses exec-target trace files under {@code predictions/<id>/}: the step listings
 * {@code claude_trace_steps.txt}, {@code codex_trace_steps.txt}, {@code cursor_trace_steps.txt} (lines
 * {@code [i] kind: text}, kind {@code text|tool_call|tool_result} or Codex's {@code user|codex|exec}), and,
 * when no listing exists, the raw streams {@code codex_raw.txt} (Codex exec log) and {@code claude_raw.txt} /
 * {@code cursor_raw.txt} (stream-json). Unknown lines and events are skipped, never fatal.
 */
final class TraceFiles {
    static final int RESULT_CAP = 200;
    private static final List<String> BACKENDS = List.of("claude", "codex", "cursor");
    private static final Pattern STEP_LINE = Pattern.compile(
            "^\\[(\\d+)]\\s*(text|tool_call|tool_result|user|codex|exec|assistant|thinking)(?:\\s*\\(([^)]*)\\)|\\s+([\\w.:-]+))?\\s*:\\s?(.*)$");
    private static final Pattern CHARS = Pattern.compile("\\((\\d+) chars?(?:, truncated)?\\)\\s*$");

    private TraceFiles() {}

    static List<TraceFile> read(RolloutSet set) {
        Path preds = set.dir().resolve("predictions");
        if (!Files.isDirectory(preds)) return List.of();
        List<TraceFile> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(preds)) {
            for (Path p : s.filter(Files::isDirectory).sorted().toList()) {
                for (String b : BACKENDS) {
                    TraceFile t = readOne(set, p, b);
                    if (t != null) out.add(t);
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private static TraceFile readOne(RolloutSet set, Path pred, String backend) {
        String id = pred.getFileName().toString();
        Path steps = pred.resolve(backend + "_trace_steps.txt");
        if (Files.isRegularFile(steps)) return new TraceFile(set, id, backend, steps, parseSteps(text(steps)));
        Path raw = pred.resolve(backend + "_raw.txt");
        if (!Files.isRegularFile(raw)) return null;
        List<TraceStep> parsed = backend.equals("codex") ? parseCodexRaw(text(raw)) : parseStreamJson(text(raw));
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
        Kind kind = null;
        String tool = "";
        StringBuilder body = new StringBuilder();
        boolean wholeTruncated = false;
        for (String line : text.replace("\r\n", "\n").split("\n", -1)) {
            Matcher m = STEP_LINE.matcher(line);
            if (m.matches()) {
                if (kind != null) out.add(step(kind, tool, body.toString()));
                String k = m.group(2);
                kind = kindOf(k);
                tool = m.group(3) != null ? m.group(3).trim() : m.group(4) != null ? m.group(4) : k.equals("exec") ? "exec" : "";
                body.setLength(0);
                body.append(m.group(5));
            } else if (line.contains("[trace steps truncated]") || line.contains("[trace truncated]")) {
                wholeTruncated = true;
            } else if (kind != null) {
                body.append('\n').append(line);
            }
        }
        if (kind != null) out.add(step(kind, tool, body.toString().stripTrailing()));
        if (wholeTruncated && !out.isEmpty()) {
            TraceStep l = out.remove(out.size() - 1);
            out.add(new TraceStep(l.kind(), l.tool(), l.text(), l.chars(), true));
        }
        return out;
    }

    private static TraceStep step(Kind kind, String tool, String body) {
        String t = body.strip();
        Matcher c = CHARS.matcher(t);
        int chars = t.length();
        boolean truncated = t.endsWith("…") || t.endsWith("...") || t.contains("[truncated");
        if (c.find()) {
            chars = Integer.parseInt(c.group(1));
            truncated = truncated || c.group(0).contains("truncated");
            t = t.substring(0, c.start()).strip();
        }
        return new TraceStep(kind, tool, t, Math.max(chars, t.length()), truncated);
    }

    private static Kind kindOf(String k) {
        return switch (k) {
            case "tool_call", "exec" -> Kind.TOOL_CALL;
            case "tool_result" -> Kind.TOOL_RESULT;
            default -> Kind.TEXT;
        };
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
            if (!t.isEmpty() || type.equals("codex")) out.add(new TraceStep(Kind.TEXT, "", t, t.length(), false));
            return;
        }
        String cmd = lines.stream().map(String::strip).filter(x -> !x.isEmpty()).findFirst().orElse("");
        out.add(new TraceStep(Kind.TOOL_CALL, "exec", cmd, cmd.length(), false));
        int at = lines.stream().map(String::strip).toList().indexOf(cmd);
        String result = String.join("\n", lines.subList(Math.max(at + 1, 0), lines.size())).strip();
        if (!result.isEmpty()) out.add(capped(Kind.TOOL_RESULT, "exec", result));
    }

    /** Claude / Cursor stream-json: assistant text and tool_use blocks, user tool_result blocks, cursor tool_call events. */
    static List<TraceStep> parseStreamJson(String raw) {
        List<TraceStep> out = new ArrayList<>();
        for (String line : raw.replace("\r\n", "\n").split("\n")) {
            String s = line.strip();
            if (!s.startsWith("{")) continue;
            Map<String, Object> ev;
            try {
                ev = Json.parseObject(s);
            } catch (IllegalArgumentException e) {
                continue;
            }
            String type = String.valueOf(ev.get("type"));
            if (type.equals("tool_call")) {
                String tool = ev.get("tool_call") instanceof Map<?, ?> tc && !tc.isEmpty() ? String.valueOf(tc.keySet().iterator().next()) : "";
                String body = ev.get("tool_call") == null ? "" : Json.compact(ev.get("tool_call"));
                if ("started".equals(ev.get("subtype"))) out.add(new TraceStep(Kind.TOOL_CALL, tool, body, body.length(), false));
                else if ("completed".equals(ev.get("subtype"))) out.add(capped(Kind.TOOL_RESULT, tool, body));
                continue;
            }
            if (!(ev.get("message") instanceof Map<?, ?> msg) || !(msg.get("content") instanceof List<?> blocks)) continue;
            for (Object b : blocks) {
                if (!(b instanceof Map<?, ?> blk)) continue;
                String bt = String.valueOf(blk.get("type"));
                switch (bt) {
                    case "text" -> {
                        String t = String.valueOf(blk.get("text"));
                        out.add(new TraceStep(Kind.TEXT, "", t, t.length(), false));
                    }
                    case "tool_use" -> {
                        String in = blk.get("input") == null ? "" : Json.compact(blk.get("input"));
                        out.add(new TraceStep(Kind.TOOL_CALL, String.valueOf(blk.get("name")), in, in.length(), false));
                    }
                    case "tool_result" -> {
                        Object c = blk.get("content");
                        String t = c instanceof String str ? str : c == null ? "" : Json.compact(c);
                        out.add(capped(Kind.TOOL_RESULT, "", t));
                    }
                    default -> { }
                }
            }
        }
        return out;
    }

    private static TraceStep capped(Kind kind, String tool, String text) {
        boolean cut = text.length() > RESULT_CAP;
        return new TraceStep(kind, tool, cut ? text.substring(0, RESULT_CAP) : text, text.length(), cut);
    }
}
