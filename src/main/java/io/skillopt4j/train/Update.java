package io.skillopt4j.train;

import io.skillopt4j.config.Coercion;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunWriter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. The update stage: the candidate skill by mode, written with its result file into the step folder. */
record Update(TrainSettings settings, Optimizer optimizer, Prompts prompts, RunWriter writer) {
    /** Immutable. The candidate (null: skip_no_rewrite), patch mode's apply summary, a rewrite's change summary. */
    public record Result(String candidate, Map<String, Object> applySummary, Object changeSummary) {}

    public Result run(String skill, Map<String, Object> merged, Map<String, Object> ranked, String stepBuffer, Path stepDir) {
        String key = settings.updateMode().payloadKey();
        List<Object> items = Aggregate.items(ranked, key);
        Result r = switch (settings.updateMode()) {
            case PATCH -> {
                EditApplier.Result applied = EditApplier.apply(skill, items);
                if (!applied.report().isEmpty()) writer.artefact(stepDir.resolve("edit_apply_report.json"), applied.report());
                yield new Result(applied.text(), applied.report().isEmpty() ? null : applied.summary(), null);
            }
            case REWRITE -> rewrite(skill, items, stepBuffer, stepDir);
            default -> fullRewrite(merged, items, stepDir);
        };
        writer.artefactText(stepDir.resolve("candidate_skill.md"), r.candidate() == null ? skill : r.candidate());
        return r;
    }

    private Result rewrite(String skill, List<Object> suggestions, String stepBuffer, Path stepDir) {
        if (suggestions.isEmpty()) return new Result(null, null, null);
        StringBuilder u = new StringBuilder("## Current Skill\n").append(Prompts.view(skill)).append("\n\n## Selected Revise Suggestions (")
                .append(suggestions.size()).append(" total)\n").append(Json.pretty(suggestions));
        if (stepBuffer != null && !stepBuffer.isBlank()) u.append("\n\n").append(stepBuffer.strip());
        u.append("\n\nRewrite the complete skill applying these suggestions and return it as `new_skill`.");
        Map<String, Object> reply = optimizer.json("rewrite", "rewrite", Prompts.forSkill(prompts.withOverride("rewrite_skill"), skill, true), u.toString(),
                settings.rewriteMaxTokens(), settings.rewriteReasoningEffort(), 3).orElse(null);
        if (reply == null) return new Result(null, null, null);
        String text = skillText(reply.get("new_skill"));
        if (text.isBlank()) {
            optimizer.record("rewrite", "rewrite", "no_new_skill", "reply has no non-blank new_skill");
            return new Result(null, null, null);
        }
        // upstream normalises the reply in place and stores it: new_skill right-trimmed plus "\n", change_summary a list
        Map<String, Object> out = new LinkedHashMap<>(reply);
        out.put("new_skill", text.stripTrailing() + "\n");
        if (!(reply.get("change_summary") instanceof List<?>)) out.put("change_summary", new ArrayList<>());
        writer.artefact(stepDir.resolve("rewrite_result.json"), out);
        return new Result((String) out.get("new_skill"), null, new ArrayList<>((List<?>) out.get("change_summary")));
    }

    @SuppressWarnings("unchecked")
    private Result fullRewrite(Map<String, Object> merged, List<Object> candidates, Path stepDir) {
        for (Object o : candidates) {
            if (o instanceof Map<?, ?> m && !skillText(m.get("new_skill")).isBlank()) {
                writer.artefact(stepDir.resolve("full_rewrite_result.json"),
                        Json.obj("selected_candidate", m, "merged_patch", merged));
                // the record's rewrite_change_summary is the candidate's change_summary as given ([] when absent)
                Object summary = ((Map<String, Object>) m).getOrDefault("change_summary", List.of());
                return new Result(skillText(m.get("new_skill")).stripTrailing() + "\n", null, summary);
            }
        }
        optimizer.record("update", "full_rewrite", "no_candidate", "no skill candidate with a non-blank new_skill");
        return new Result(null, null, null);
    }

    /** Upstream's {@code str(reply.get("new_skill", ""))}: any JSON value as Python prints it, "" when absent. */
    static String skillText(Object o) {
        return o == null ? "" : o instanceof String x ? x : Coercion.pyStr(o);
    }
}
