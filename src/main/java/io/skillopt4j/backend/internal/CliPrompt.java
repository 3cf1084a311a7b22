package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe (stateless). Turns chat messages into the single prompt a CLI in print mode reads, laid out as
 * upstream's {@code _build_prompt_from_messages}, and writes attached images.
 */
public final class CliPrompt {
    private CliPrompt() {}

    /** The JSON schema CLIs must answer with when tools are present. */
    public static Map<String, Object> toolSchema() {
        Map<String, Object> call = Json.obj("type", "object",
                "properties", Map.of("name", Map.of("type", "string"), "arguments", Map.of("type", "string")),
                "required", List.of("name", "arguments"), "additionalProperties", false);
        Map<String, Object> props = Json.obj("content", Map.of("type", "string"),
                "tool_calls", Map.of("type", "array", "items", call));
        return Json.obj("type", "object", "properties", props, "required", List.of("content", "tool_calls"),
                "additionalProperties", false);
    }

    /** All system messages, stripped and joined with blank lines. */
    public static String system(ChatRequest r) {
        return r.messages().stream().filter(m -> m.role().equals("system") && !m.content().isBlank())
                .map(m -> m.content().strip()).collect(java.util.stream.Collectors.joining("\n\n"));
    }

    /** The prompt body; {@code toolWord} is "compatibility tools" (Claude) or "tools" (Codex). */
    public static String body(ChatRequest r, String toolWord, boolean structured, List<Path> images) {
        List<String> blocks = new ArrayList<>();
        if (!r.tools().isEmpty()) {
            List<Object> specs = r.tools().stream().<Object>map(t -> Map.of("name", t.name(), "description", t.description(),
                    "parameters", t.parameters())).toList();
            StringBuilder b = new StringBuilder("Available " + toolWord + ":\n").append(Json.pretty(specs)).append('\n')
                    .append("Do not execute these tools yourself. To use one, request it in tool_calls, with arguments as a JSON string.");
            String c = r.toolChoice();
            if ("required".equals(c)) b.append("\nYou must request at least one tool call.");
            else if (c != null && !c.isBlank() && !c.equals("auto") && !c.equals("none")) b.append("\nYou must request the tool '").append(c).append("'.");
            blocks.add(b.toString());
        }
        StringBuilder h = new StringBuilder("History:");
        int img = 0;
        for (ChatMessage m : r.messages()) {
            if (m.role().equals("system")) continue;
            String label = switch (m.role()) {
                case "assistant" -> "Assistant";
                case "tool" -> "Tool result (tool_call_id=" + (m.toolCallId() == null ? "" : m.toolCallId()) + ")";
                default -> m.role().substring(0, 1).toUpperCase(Locale.ROOT) + m.role().substring(1);
            };
            StringBuilder text = new StringBuilder(m.content());
            for (int i = 0; i < m.imageUrls().size(); i++) {
                img++;
                text.append(text.length() > 0 ? "\n" : "").append("[Attached image ").append(img).append(']');
            }
            if (!m.toolCalls().isEmpty()) {
                List<Object> calls = m.toolCalls().stream().<Object>map(c -> Map.of("name", c.name(), "arguments", c.argumentsJson())).toList();
                text.append("\nCompatibility tool requests:\n").append(Json.line(calls));
            }
            h.append("\n- ").append(label).append(": ").append(text.toString().replace("\n", "\n  "));
        }
        blocks.add(h.toString());
        if (images != null && !images.isEmpty()) {
            blocks.add("Attached image files (you may use the Read tool on these paths only):"
                    + images.stream().map(p -> "\n- " + p).collect(java.util.stream.Collectors.joining()));
        }
        blocks.add(structured ? "Return only JSON matching the provided schema." + (r.tools().isEmpty() ? ""
                : " Put your reply in content and any tool requests in tool_calls.") : "Answer the latest user request.");
        return String.join("\n\n", blocks);
    }

    /** Writes every image of the request into {@code dir} as image_i.ext and returns the paths. */
    public static List<Path> writeImages(ChatRequest r, Path dir) {
        List<Path> out = new ArrayList<>();
        int i = 0;
        for (ChatMessage m : r.messages()) {
            for (String u : m.imageUrls()) {
                i++;
                try {
                    if (u.startsWith("data:")) {
                        int comma = u.indexOf(',');
                        String meta = u.substring(5, Math.max(5, comma));
                        String ext = meta.contains("jpeg") || meta.contains("jpg") ? ".jpg" : meta.contains("gif") ? ".gif" : meta.contains("webp") ? ".webp" : ".png";
                        Path p = dir.resolve("image_" + i + ext);
                        Files.write(p, Base64.getDecoder().decode(u.substring(comma + 1).trim()));
                        out.add(p);
                    } else {
                        Path src = u.startsWith("file://") ? Path.of(java.net.URI.create(u)) : Path.of(u);
                        if (Files.isRegularFile(src)) {
                            String name = src.getFileName().toString();
                            Path p = dir.resolve("image_" + i + (name.contains(".") ? name.substring(name.lastIndexOf('.')) : ""));
                            Files.copy(src, p);
                            out.add(p);
                        }
                    }
                } catch (IOException | IllegalArgumentException e) {
                    throw new IllegalArgumentException("cannot attach image " + i + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }
}
