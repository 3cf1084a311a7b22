package io.skillopt4j.train;

import io.skillopt4j.env.ItemTrace;
import io.skillopt4j.env.ItemTraces;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Immutable. Renders rollout trajectories for the analysts as upstream's {@code fmt_trajectory}, no truncation. */
public record Trajectories(boolean codexTrace, boolean claudeTrace) {

    /** The item folder RolloutRunner writes for {@code id}. */
    static Path itemDir(Path predictionDir, String id) { return predictionDir.resolve(RolloutRunner.safeId(id)); }

    /** Reads {@code predictions/<safe id>/conversation.json}; empty when missing, unreadable or empty. */
    public static List<Object> conversation(Path predictionDir, String id) { return conversation(predictionDir, id, null); }

    /** As {@link #conversation(Path, String)}, from {@code trace} when it holds the file (null = none). */
    static List<Object> conversation(Path predictionDir, String id, ItemTrace trace) {
        try {
            return conversationJson(predictionDir, id, trace) instanceof List<?> l ? new ArrayList<>(l) : List.of();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** Item {@code id}'s {@code conversation.json} parsed, from {@code trace} or disk; null when neither has it. */
    static Object conversationJson(Path predictionDir, String id, ItemTrace trace) {
        String text = trace == null ? null : trace.file("conversation.json");
        if (text != null) return Json.parse(text);
        Path f = itemDir(predictionDir, id).resolve("conversation.json");
        return Files.isRegularFile(f) ? Json.read(f) : null;
    }

    /** Renders a conversation's entries, one or more lines each. */
    public static String render(List<Object> conversation) {
        List<String> lines = new ArrayList<>();
        for (Object e : conversation) {
            if (!(e instanceof Map<?, ?> m)) {
                lines.add("[agent] " + text(e));
            } else if ("tool_call".equals(m.get("type"))) {
                lines.add("[action] " + text(m.get("cmd")));
                lines.add("[obs] " + text(m.get("obs")));
            } else if (m.containsKey("action") && m.containsKey("env_feedback")) {
                String n = m.get("step") == null ? "?" : text(m.get("step"));
                if (m.get("reasoning") != null && !text(m.get("reasoning")).isEmpty()) lines.add("[step " + n + " think] " + text(m.get("reasoning")));
                lines.add("[step " + n + " action] " + text(m.get("action")));
                lines.add("[step " + n + " obs] " + text(m.get("env_feedback")));
            } else if ("system".equals(m.get("role"))) {
                lines.add("[verification] " + text(m.get("content")));
            } else {
                Object who = m.get("role") != null ? m.get("role") : "agent";
                lines.add("[" + text(who) + "] " + text(m.get("content")));
            }
        }
        return String.join("\n", lines);
    }

    /** Formats a minibatch; items without a conversation are skipped but numbered; "" when none has one. */
    public String format(List<RolloutResult> chunk, Path predictionDir) { return format(chunk, predictionDir, new ItemTraces()); }

    /** As {@link #format(List, Path)}, with the files {@code traces} holds taken from memory. */
    public String format(List<RolloutResult> chunk, Path predictionDir, ItemTraces traces) {
        List<String> blocks = new ArrayList<>();
        int i = 0;
        for (RolloutResult r : chunk) {
            i++;
            ItemTrace trace = traces.get(r.id());
            List<Object> conv = conversation(predictionDir, r.id(), trace);
            if (conv.isEmpty()) continue;
            ItemFiles dir = new ItemFiles(itemDir(predictionDir, r.id()), trace);
            StringBuilder b = new StringBuilder();
            b.append("### Trajectory ").append(i).append(" (id=").append(r.id()).append(")\n");
            b.append("Task: ").append(first(r, "task_description", "instruction", "question")).append('\n');
            b.append("Task type: ").append(first(r, "task_type", "instruction_type")).append('\n');
            if (!r.failReason().isEmpty()) b.append("Failure reason: ").append(r.failReason()).append('\n');
            String turns = r.str("n_turns");
            b.append("Steps: ").append(turns.isEmpty() ? "?" : turns).append('\n');
            section(b, "Hidden Reference", r.str("reference_text"));
            section(b, "Target System Prompt", orFile(r, "target_system_prompt", dir));
            section(b, "Target User Prompt", orFile(r, "target_user_prompt", dir));
            if (codexTrace) section(b, "Codex Trace Summary", orFile(r, "codex_trace_summary", dir));
            // upstream fills it from codex_probe_trace_steps only (never set); codex_exec's parsed steps stand in
            String codexSteps = r.str("codex_probe_trace_steps");
            section(b, "Codex Trace Steps", codexSteps.isEmpty() && codexTrace ? dir.read("codex_trace_steps.txt") : codexSteps);
            if (claudeTrace) section(b, "Claude Trace Steps", dir.read("claude_trace_steps.txt"));
            section(b, "Spreadsheet Preview", orFile(r, "spreadsheet_preview", dir));
            b.append('\n').append(render(conv));
            blocks.add(b.toString());
        }
        return String.join("\n\n---\n\n", blocks);
    }

    private static void section(StringBuilder b, String title, String body) {
        if (body == null || body.isBlank()) return;
        b.append("\n#### ").append(title).append('\n').append(body.strip()).append('\n');
    }

    private static String first(RolloutResult r, String... keys) {
        for (String k : keys) if (!r.str(k).isEmpty()) return r.str(k);
        return "";
    }

    private static String orFile(RolloutResult r, String key, ItemFiles dir) {
        String v = r.str(key);
        return v.isEmpty() ? dir.read(key + ".txt") : v;
    }

    /** Immutable. An item's folder, and its trace (null = none) whose files are read from memory. */
    private record ItemFiles(Path dir, ItemTrace trace) {
        String read(String name) {
            String text = trace == null ? null : trace.file(name);
            return text != null ? text : readFile(dir.resolve(name));
        }
    }

    /** The parsed JSON of {@code f}; null when missing or unreadable. */
    static Object readJson(Path f) {
        if (!Files.isRegularFile(f)) return null;
        try { return Json.read(f); } catch (RuntimeException e) { return null; }
    }

    static String readFile(Path f) {
        if (!Files.isRegularFile(f)) return "";
        try { return Files.readString(f, StandardCharsets.UTF_8); } catch (IOException e) { return ""; }
    }

    static String text(Object o) {
        if (o == null) return "";
        if (o instanceof String s) return s;
        if (o instanceof Map || o instanceof List) return Json.line(o);
        return String.valueOf(o);
    }
}
