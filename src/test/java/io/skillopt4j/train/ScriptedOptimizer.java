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

    ScriptedOptimizer(UsageMeter meter) { this.meter = meter; }

    @Override public ChatResponse chat(ChatRequest req) {
        calls.computeIfAbsent(req.stage(), k -> new AtomicInteger()).incrementAndGet();
        String u = req.lastUserText();
        String reply = garbage ? "I cannot answer in JSON today." : answer(u);
        Usage usage = Usage.of(u.length() / 4, reply.length() / 4);
        if (meter != null) meter.record("optimizer", req.stage(), usage, Duration.ZERO);
        return ChatResponse.of(reply, usage);
    }

    static String answer(String u) {
        if (u.contains("## Failed Trajectories (")) {
            Set<String> kws = new LinkedHashSet<>();
            Matcher m = MISSING.matcher(u);
            int n = 0;
            while (m.find()) { kws.add(m.group(1)); n++; }
            List<Object> edits = new ArrayList<>();
            for (String k : kws) edits.add(Map.of("op", "append", "content", "- RULE:" + k + " applies to " + k + " tasks."));
            return "```json\n" + Json.pretty(Map.of("batch_size", n,
                    "failure_summary", List.of(Map.of("failure_type", "missing-rule", "count", n, "description", "the skill lacks a rule")),
                    "patch", Map.of("reasoning", "add missing rules", "edits", edits))) + "\n```";
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
            List<Object> edits = new ArrayList<>();
            Set<String> seen = new LinkedHashSet<>();
            for (Object p : patches) {
                @SuppressWarnings("unchecked") List<Object> es = (List<Object>) ((Map<String, Object>) p).get("edits");
                for (Object e : es) {
                    @SuppressWarnings("unchecked") Map<String, Object> em = new LinkedHashMap<>((Map<String, Object>) e);
                    if (seen.add(String.valueOf(em.get("content")))) { em.remove("merge_level"); edits.add(em); }
                }
            }
            return Json.pretty(Map.of("reasoning", "merged", "edits", edits));
        }
        if (u.contains("## Edits Pool (")) {
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
        if (u.contains("## Current Appendix Notes")) {
            return "{\"appendix_notes\": [\"Check the rule list.\"]}";
        }
        if (u.contains("## Selected Revise Suggestions (")) {
            String skill = u.substring(u.indexOf("## Current Skill\n") + 17, u.indexOf("\n\n## Selected Revise Suggestions ("));
            return Json.pretty(Map.of("reasoning", "rewrote", "change_summary", "added rules", "new_skill", skill + "\n- RULE:alpha rewritten"));
        }
        return "{}";
    }
}
