package io.skillopt4j.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Stateless. The config keys a run folder is bound to: a resume whose value of one differs from the folder's
 * {@code config.json} is refused, as it would change the plan or the results. Everything else (workers, timeouts,
 * endpoints, caches, the engine) only changes how fast or where the same run happens. See docs/training.md.
 */
public final class ResumeKeys {
    /** Grouped as documented. */
    public static final List<String> BOUND = List.of(
            // the plan: which items, how many steps, which skill to start from
            "env", "seed", "num_epochs", "train_size", "steps_per_epoch", "batches_per_epoch", "batch_size", "accumulation",
            "sel_env_num", "test_env_num", "eval_test",
            // the data and the benchmark's scoring
            "data_path", "split_mode", "split_ratio", "split_seed", "split_dir", "data_root", "limit", "mode", "max_turns",
            "max_steps", "shuffle_choices", "use_theorem", "use_sketch", "image_detail", "judge_model", "house_rules_seed",
            "house_rules_per_category", "house_rules_split", "search_mode", "max_tool_turns", "use_hints", "swebench_dataset",
            "swebench_split",
            // the models and what they are sent
            "model_backend", "optimizer_backend", "target_backend", "optimizer_model", "target_model", "reasoning_effort",
            "rewrite_reasoning_effort", "rewrite_max_completion_tokens", "max_completion_tokens", "minimax_model",
            "codex_trace_to_optimizer", "claude_trace_to_optimizer", "json_reask",
            // the optimizer: learning rate, update mode, reflection, slow update, meta skill
            "edit_budget", "min_edit_budget", "lr_scheduler", "lr_control_mode", "skill_update_mode", "merge_batch_size",
            "minibatch_size", "failure_only", "use_slow_update", "slow_update_samples", "slow_update_gate_with_selection",
            "longitudinal_pair_policy", "use_meta_skill", "use_skill_aware_reflection", "skill_aware_appendix_source",
            "skill_aware_consolidate_threshold",
            // the gate
            "use_gate", "gate_metric", "gate_mixed_weight", "use_semantic_density", "semantic_density_weight", "leading_words");

    /** The keys {@code --extend-epochs} lets grow (num_epochs and what it derives). */
    public static final List<String> EXTENDABLE = List.of("num_epochs");

    private ResumeKeys() {}

    /** Immutable. One bound key whose stored and requested values (as text) differ. */
    public record Difference(String key, String path, String stored, String requested) {
        @Override public String toString() { return path + " " + stored + " -> " + requested; }
    }

    /** The bound keys whose values differ between two configs; a key absent from one side counts as its default. */
    public static List<Difference> differences(Map<String, ?> stored, Map<String, ?> requested) {
        List<Difference> out = new ArrayList<>();
        for (String key : BOUND) {
            String a = canonical(key, stored.containsKey(key) ? stored.get(key) : TypedReader.defaultOf(key));
            String b = canonical(key, requested.containsKey(key) ? requested.get(key) : TypedReader.defaultOf(key));
            if (!Objects.equals(a, b)) out.add(new Difference(key, Flags.byKey(key).map(FlagSpec::path).orElse(key), a, b));
        }
        return out;
    }

    /** Comparable text: numbers without a needless ".0", booleans and numeric strings by the row's type. */
    static String canonical(String key, Object v) {
        if (v == null) return "null";
        FlagSpec.FlagType type = Flags.byKey(key).map(FlagSpec::type).orElse(FlagSpec.FlagType.ANY);
        if (v instanceof String s && type != FlagSpec.FlagType.STR && type != FlagSpec.FlagType.ANY) {
            String t = s.strip();
            if (type == FlagSpec.FlagType.BOOL) {
                return String.valueOf(List.of("true", "1", "yes", "on").contains(t.toLowerCase(java.util.Locale.ROOT)));
            }
            try {
                return number(Double.parseDouble(t));
            } catch (NumberFormatException e) {
                return t;
            }
        }
        if (v instanceof Number n) return number(n.doubleValue());
        if (v instanceof String || v instanceof Boolean) return String.valueOf(v);
        return io.skillopt4j.internal.Json.compact(v);
    }

    private static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }
}
