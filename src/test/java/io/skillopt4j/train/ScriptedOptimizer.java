package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.internal.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe. A scripted optimizer for trainer tests: recognises each stage by the headings of its user
 * message (as the offline simulator does) and answers deterministically from the message alone; meters
 * usage per stage; counts calls per stage.
 */
final class ScriptedOptimizer implements ChatModel {
    private static final Pattern MISSING = Pattern.compile("Failure reason: missing-rule: (\\w+)");
    private final UsageMeter meter;
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    volatile boolean garbage;
    volatile long delayMillis;
    final List<String> userMessages = java.util.Collections.synchronizedList(new ArrayList<>());

    ScriptedOptimizer(UsageMeter meter) { this.meter = meter; }

    @Override public ChatResponse chat(ChatRequest req) {
        calls.computeIfAbsent(req.stage(), k -> new AtomicInteger()).incrementAndGet();
        String u = req.lastUserText();
        userMessages.add(u);
        if (delayMillis > 0) {
            try { Thread.sleep(delayMillis); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
        String reply = garbage ? "I cannot answer in JSON today." : answer(u, req.systemText().contains("EXECUTION_LAPSE"));
        Usage usage = Usage.of(u.length() / 4, reply.length() / 4);
        if (meter != null) meter.record("optimizer", req.stage(), usage, Duration.ZERO);
        return ChatResponse.of(reply, usage);
    }

    static String answer(String u, boolean skillAware) {
        if (u.contains("## Failed Trajectories (")) {
            Set<String> kws = new LinkedHashSet<>();
            Matcher m = MISSING.matcher(u);
            int n = 0;
            while (m.find()) { kws.add(m.group(1)); n++; }
            String skill = u.substring(u.indexOf("## Current Skill\n") + 17, u.indexOf("\n\n## "));
            List<Object> items = new ArrayList<>();
            String key = "edits";
            if (u.contains("## Suggestions Budget")) {
                key = "revise_suggestions";
                for (String k : kws) items.add(Map.of("type", "add_rule", "title", "rule " + k, "instruction", "- RULE:" + k + " applies to " + k + " tasks."));
            } else if (u.contains("## Update Format")) {
                key = "skill_candidates";
                StringBuilder b = new StringBuilder(skill);
                for (String k : kws) b.append("\n- RULE:").append(k).append(" applies to ").append(k).append(" tasks.");
                items.add(Map.of("title", "rules", "change_summary", List.of("added rules"), "new_skill", b.toString()));
            } else {
                for (String k : kws) items.add(Map.of("op", "append", "content", "- RULE:" + k + " applies to " + k + " tasks."));
            }
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("batch_size", n);
            reply.put("failure_summary", List.of(Map.of("failure_type", "missing-rule", "count", n, "description", "the skill lacks a rule")));
            reply.put("patch", Map.of("reasoning", "add missing rules", key, items));
            if (skillAware) reply.put("appendix_notes", List.of("Double-check the keyword."));
            return "```json\n" + Json.pretty(reply) + "\n```";
        }
        if (u.contains("## Successful Trajectories (")) {
            List<Object> edits = new ArrayList<>();
            if (!u.contains("Keep answers short.")) edits.add(Map.of("op", "insert_after", "target", "# Skill", "content", "Keep answers short."));
            return Json.pretty(Map.of("batch_size", 1, "success_patterns", List.of("short answers"),
                    "patch", Map.of("reasoning", "keep what works", "edits", edits)));
        }
        if (u.contains("## Patches to merge (") || u.contains("## Two pre-merged patch groups to combine")) {
            String arr = u.substring(u.indexOf("\n[", u.indexOf(u.contains("## Patches to merge (") ? "## Patches to merge (" : "## Two pre-merged")) + 1);
            List<Object> patches = Json.parseArray(arr);
            String key = arr.contains("\"skill_candidates\"") ? "skill_candidates" : arr.contains("\"revise_suggestions\"") ? "revise_suggestions" : "edits";
            List<Object> edits = new ArrayList<>();
            Set<String> seen = new LinkedHashSet<>();
            for (Object p : patches) {
                @SuppressWarnings("unchecked") List<Object> es = (List<Object>) ((Map<String, Object>) p).getOrDefault(key, List.of());
                for (Object e : es) {
                    @SuppressWarnings("unchecked") Map<String, Object> em = new LinkedHashMap<>((Map<String, Object>) e);
                    String id = String.valueOf(em.get(key.equals("edits") ? "content" : key.equals("revise_suggestions") ? "instruction" : "new_skill"));
                    if (seen.add(id)) { em.remove("merge_level"); edits.add(em); }
                }
            }
            if (key.equals("skill_candidates") && !edits.isEmpty()) {
                @SuppressWarnings("unchecked") Map<String, Object> first = new LinkedHashMap<>((Map<String, Object>) edits.get(0));
                StringBuilder b = new StringBuilder(String.valueOf(first.get("new_skill")));
                for (Object e : edits) for (String line : String.valueOf(((Map<?, ?>) e).get("new_skill")).split("\n")) {
                    if (line.startsWith("- RULE:") && b.indexOf(line) < 0) b.append("\n").append(line);
                }
                first.put("new_skill", b.toString());
                edits = List.of(first);
            }
            return Json.pretty(Map.of("reasoning", "merged", key, edits));
        }
        if (u.contains("## Edits Pool (") || u.contains("## Suggestions Pool (")) {
            Matcher m = Pattern.compile("budget=(\\d+)\\)").matcher(u);
            int k = m.find() ? Integer.parseInt(m.group(1)) : 1;
            List<Integer> idx = new ArrayList<>();
            for (int i = k - 1; i >= 0; i--) idx.add(i);
            return Json.pretty(Map.of("reasoning", "ranked", "selected_indices", idx));
        }
        if (u.contains("## Current Step Evidence")) {
            return "{\"learning_rate\": 2, \"reasoning\": \"moderate\", \"confidence\": \"medium\", \"risk_notes\": []}";
        }
        if (u.contains("## Previous Slow Update Guidance")) {
            return "{\"reasoning\": \"regressions\", \"slow_update_content\": \"- Re-read the task before answering.\"}";
        }
        if (u.contains("## Previous Meta Skill")) {
            return "{\"reasoning\": \"appends help\", \"meta_skill_content\": \"- Appending one rule per keyword works.\"}";
        }
        if (u.contains("## Current Execution Notes (")) {
            return "{\"appendix_notes\": [\"Check the rule list.\"]}";
        }
        if (u.contains("## Selected Revise Suggestions (")) {
            String skill = u.substring(u.indexOf("## Current Skill\n") + 17, u.indexOf("\n\n## Selected Revise Suggestions ("));
            StringBuilder b = new StringBuilder(skill);
            Matcher m = Pattern.compile("\"instruction\": \"([^\"]*)\"").matcher(u);
            while (m.find()) if (b.indexOf(m.group(1)) < 0) b.append("\n").append(m.group(1));
            return Json.pretty(Map.of("reasoning", "rewrote", "change_summary", "added rules", "new_skill", b.toString()));
        }
        return "{}";
    }
}
