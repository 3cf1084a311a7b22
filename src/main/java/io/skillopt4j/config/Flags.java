package io.skillopt4j.config;

import io.skillopt4j.config.FlagSpec.FlagType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static io.skillopt4j.config.FlagSpec.FlagType.BOOL;
import static io.skillopt4j.config.FlagSpec.FlagType.FLOAT;
import static io.skillopt4j.config.FlagSpec.FlagType.INT;
import static io.skillopt4j.config.FlagSpec.FlagType.STR;
import static io.skillopt4j.config.FlagSpec.FlagType.ANY;

/**
 * Immutable. The one table of config keys and CLI flags: upstream {@code scripts/train.py}'s flags in argparse order,
 * the flag-less keys of its flatten map, and SkillOpt4J's additions. Picocli options, flattening, legacy-flag mapping
 * and docs/config.md are all derived from it.
 */
public final class Flags {
    public static final List<FlagSpec> ALL;
    /** The structured section names upstream recognises. */
    public static final List<String> SECTIONS = List.of("model", "train", "gradient", "optimizer", "evaluation", "env", "engine", "budget");
    /** Keys of {@code configs/_base_/default.yaml} that upstream's flatten map omits, so they never reach a run. */
    public static final List<String> DROPPED_BASE_KEYS = List.of("model.optimizer_minimax_base_url",
            "model.target_minimax_base_url", "model.optimizer_minimax_api_key", "model.target_minimax_api_key");

    private static final Map<String, FlagSpec> BY_KEY = new LinkedHashMap<>();
    private static final Map<String, FlagSpec> BY_PATH = new LinkedHashMap<>();
    private static final Map<String, FlagSpec> BY_FLAG = new LinkedHashMap<>();

    static {
        List<FlagSpec> t = new ArrayList<>();
        t.add(s("env", "env.name", STR, "", "Benchmark (environment) name").evalToo());
        t.add(s("model_backend", "model.backend", STR, "azure_openai",
                "Run label that pairs optimizer/target backends (aliases accepted)").evalToo()
                .withChoices("azure_openai", "codex", "codex_exec", "claude", "claude_chat", "claude_code_exec", "cursor",
                        "cursor_exec", "copilot", "copilot_chat", "copilot_exec", "qwen", "qwen_chat", "minimax",
                        "minimax_chat", "openai_compatible"));
        t.add(s("optimizer_model", "model.optimizer", STR, "gpt-5.5", "Optimizer model/deployment name").evalToo());
        t.add(s("target_model", "model.target", STR, "gpt-5.5", "Target model/deployment name").evalToo());
        t.add(s("optimizer_backend", "model.optimizer_backend", STR, "openai_chat", "Backend of the optimizer role").evalToo());
        t.add(s("target_backend", "model.target_backend", STR, "openai_chat", "Backend of the target role").evalToo());
        t.add(s("reasoning_effort", "model.reasoning_effort", STR, "medium", "Shared reasoning effort (\"\" disables)")
                .evalToo().withChoices("", "low", "medium", "high", "xhigh", "max"));
        t.add(s("rewrite_reasoning_effort", "model.rewrite_reasoning_effort", STR, "", "Reasoning effort of full rewrites (\"\" = shared)"));
        t.add(s("rewrite_max_completion_tokens", "model.rewrite_max_completion_tokens", INT, 64000, "Output cap of full rewrites"));
        t.add(n("azure_endpoint", "model.azure_endpoint", STR, "Legacy alias of azure_openai_endpoint").evalToo());
        t.add(n("azure_api_version", "model.azure_api_version", STR, "Legacy alias of azure_openai_api_version").evalToo());
        t.add(n("azure_api_key", "model.azure_api_key", STR, "Legacy alias of azure_openai_api_key (prefer AZURE_OPENAI_API_KEY)").evalToo());
        for (String role : List.of("", "optimizer_", "target_")) {
            String who = role.isEmpty() ? "Shared" : role.equals("optimizer_") ? "Optimizer" : "Target";
            String p = role + "azure_openai_";
            boolean shared = role.isEmpty();
            t.add(azure(shared, "", s(p + "endpoint", "model." + p + "endpoint", STR, "", who + " Azure OpenAI endpoint").evalToo()));
            t.add(azure(shared, null, s(p + "api_version", "model." + p + "api_version", STR, "2024-12-01-preview",
                    who + " Azure API version (unset: 2024-12-01-preview, openai-compat for auth mode openai_compatible)").evalToo()));
            FlagSpec key = s(p + "api_key", "model." + p + "api_key", STR, "", who + " Azure key (prefer the environment variable)").evalToo();
            t.add(shared ? key.secretEnv("{ROLE}_AZURE_OPENAI_API_KEY", "AZURE_OPENAI_{ROLE}_API_KEY", "AZURE_OPENAI_API_KEY") : key);
            t.add(azure(shared, "azure_cli", s(p + "auth_mode", "model." + p + "auth_mode", STR, "", who + " auth mode: api_key, azure_cli, managed_identity, openai_compatible").evalToo()));
            t.add(azure(shared, "https://cognitiveservices.azure.com/.default", s(p + "ad_scope", "model." + p + "ad_scope", STR, "https://cognitiveservices.azure.com/.default", who + " AAD token scope").evalToo()));
            t.add(azure(shared, null, s(p + "managed_identity_client_id", "model." + p + "managed_identity_client_id", STR, "", who + " user-assigned identity client id").evalToo()));
        }
        for (String role : List.of("", "optimizer_", "target_")) {
            String who = role.isEmpty() ? "Shared" : role.equals("optimizer_") ? "Optimizer" : "Target";
            String p = role + "qwen_chat_";
            boolean shared = role.isEmpty();
            t.add(roleEnv(shared, "http://localhost:8000/v1", n(p + "base_url", "model." + p + "base_url", STR, who + " Qwen server base URL")));
            FlagSpec key = n(p + "api_key", "model." + p + "api_key", STR, who + " Qwen API key (prefer the environment variable)");
            t.add(shared ? key.secretEnv(roleForms("QWEN_CHAT_API_KEY")) : key);
            t.add(roleEnv(shared, 0.7, n(p + "temperature", "model." + p + "temperature", FLOAT, who + " Qwen sampling temperature (\"\", none, off: omitted)")));
            t.add(roleEnv(shared, 300, n(p + "timeout_seconds", "model." + p + "timeout_seconds", FLOAT, who + " Qwen request timeout (s)")));
            t.add(roleEnv(shared, 8000, n(p + "max_tokens", "model." + p + "max_tokens", INT, who + " Qwen max output tokens")));
            t.add(roleEnv(shared, null, n(p + "enable_thinking", "model." + p + "enable_thinking", BOOL, who + " Qwen thinking flag (legacy: thinking_mode wins)")));
            t.add(roleEnv(shared, null, s(p + "thinking_mode", "model." + p + "thinking_mode", STR, "", who + " thinking mode: \"\" (server default), enabled, disabled")));
            t.add(roleEnv(shared, false, n(p + "use_max_completion_tokens", "model." + p + "use_max_completion_tokens", BOOL,
                    who + " Qwen: send max_completion_tokens instead of max_tokens").noFlag().asOurs()));
        }
        t.add(s("minimax_region", "model.minimax_region", STR, "", "MiniMax region: global_en (default) or cn_zh").evalToo().env("", "MINIMAX_REGION"));
        t.add(s("minimax_base_url", "model.minimax_base_url", STR, "", "MiniMax base URL (overrides the region)").evalToo().env(null, "MINIMAX_BASE_URL"));
        t.add(s("minimax_api_key", "model.minimax_api_key", STR, "", "MiniMax key (prefer MINIMAX_API_KEY)").evalToo().secretEnv("MINIMAX_API_KEY"));
        t.add(s("minimax_model", "model.minimax_model", STR, "MiniMax-M3", "MiniMax model (target model for minimax_chat)").evalToo());
        t.add(s("minimax_temperature", "model.minimax_temperature", FLOAT, "0.7", "MiniMax sampling temperature").evalToo().env(0.7, "MINIMAX_TEMPERATURE"));
        t.add(s("minimax_max_tokens", "model.minimax_max_tokens", INT, "8000", "MiniMax max output tokens").evalToo().env(8000, "MINIMAX_MAX_TOKENS"));
        t.add(n("minimax_timeout_seconds", "model.minimax_timeout_seconds", FLOAT, "MiniMax request timeout (s)").noFlag().asOurs().env(300, "MINIMAX_TIMEOUT_SECONDS"));
        t.add(s("minimax_enable_thinking", "model.minimax_enable_thinking", BOOL, "false", "MiniMax thinking flag").evalToo().env(false, "MINIMAX_ENABLE_THINKING"));
        t.add(s("codex_exec_path", "model.codex_exec_path", STR, "", "Codex CLI path").evalToo()
                .env("codex", "CODEX_EXEC_PATH", "CODEX_CLI_BIN", "CODEX_PATH").aliases("codex_path", "codex_cli_bin", "codex_bin"));
        t.add(s("codex_exec_sandbox", "model.codex_exec_sandbox", STR, "", "Codex sandbox").evalToo()
                .env("workspace-write", "CODEX_EXEC_SANDBOX", "CODEX_SANDBOX_MODE", "CODEX_SANDBOX").aliases("sandbox", "codex_sandbox"));
        t.add(s("codex_exec_profile", "model.codex_exec_profile", STR, "", "Codex profile").evalToo().env("", "CODEX_EXEC_PROFILE", "CODEX_PROFILE"));
        t.add(n("codex_exec_full_auto", "model.codex_exec_full_auto", BOOL, "Deprecated and ignored; use --codex_exec_sandbox and --codex_exec_approval_policy").evalToo());
        t.add(s("codex_exec_reasoning_effort", "model.codex_exec_reasoning_effort", STR, "", "Codex reasoning effort override").evalToo().env("none", "CODEX_EXEC_REASONING_EFFORT"));
        t.add(s("codex_exec_use_sdk", "model.codex_exec_use_sdk", STR, null, "Codex SDK vs CLI mode (null: environment)").evalToo());
        t.add(s("codex_exec_network_access", "model.codex_exec_network_access", BOOL, null, "Allow network in the Codex workspace-write sandbox").evalToo().env(false, "CODEX_EXEC_NETWORK_ACCESS"));
        t.add(s("codex_exec_web_search", "model.codex_exec_web_search", BOOL, null, "Codex live web search on/off").evalToo().env(false, "CODEX_EXEC_WEB_SEARCH"));
        t.add(s("codex_exec_approval_policy", "model.codex_exec_approval_policy", STR, "", "Codex approval policy").evalToo().env("never", "CODEX_EXEC_APPROVAL_POLICY"));
        t.add(n("codex_working_directory", "model.codex_working_directory", STR, "Codex working directory of codex_exec as chat model (unset: a temp folder)")
                .noFlag().asOurs().env(null, "CODEX_WORKING_DIRECTORY"));
        t.add(s("claude_code_exec_path", "model.claude_code_exec_path", STR, "claude", "Claude Code CLI executable").evalToo().env("claude", "CLAUDE_CODE_EXEC_PATH"));
        t.add(s("claude_code_exec_profile", "model.claude_code_exec_profile", STR, "", "Claude Code profile").evalToo().env("", "CLAUDE_CODE_EXEC_PROFILE"));
        t.add(s("claude_code_exec_use_sdk", "model.claude_code_exec_use_sdk", STR, "auto", "Claude Code SDK usage mode").evalToo());
        t.add(s("claude_code_exec_effort", "model.claude_code_exec_effort", STR, "medium", "Claude Code effort (unset: CLAUDE_CODE_EXEC_EFFORT, then reasoning_effort, then medium)").evalToo().env("medium", "CLAUDE_CODE_EXEC_EFFORT"));
        t.add(s("claude_code_exec_max_thinking_tokens", "model.claude_code_exec_max_thinking_tokens", INT, 16384, "Claude Code thinking-token cap").evalToo().env(16384, "CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS"));
        t.add(s("cursor_exec_path", "model.cursor_exec_path", STR, "", "Cursor agent path").evalToo().env("cursor-agent", "CURSOR_EXEC_PATH"));
        t.add(s("cursor_exec_sandbox", "model.cursor_exec_sandbox", STR, "", "Cursor sandbox").evalToo().env("enabled", "CURSOR_EXEC_SANDBOX"));
        t.add(s("copilot_exec_path", "model.copilot_exec_path", STR, "", "Copilot CLI path (copilot_exec and copilot_chat)").evalToo().env("copilot", "COPILOT_EXEC_PATH"));
        t.add(s("copilot_exec_home", "model.copilot_exec_home", STR, "", "COPILOT_HOME for copilot_exec and copilot_chat (unset: untouched)").evalToo().env(null, "COPILOT_EXEC_HOME"));
        t.add(s("copilot_exec_allow_all_tools", "model.copilot_exec_allow_all_tools", BOOL, null, "Let copilot_exec use all tools (needed for file edits)").evalToo().env(false, "COPILOT_EXEC_ALLOW_ALL_TOOLS"));
        t.add(s("copilot_chat_optimizer_model", "model.copilot_chat_optimizer_model", STR, "", "Copilot chat model of the optimizer (blank: CLI default)").evalToo().env("", "COPILOT_CHAT_OPTIMIZER_MODEL"));
        t.add(s("copilot_chat_target_model", "model.copilot_chat_target_model", STR, "", "Copilot chat model of the target (blank: CLI default)").evalToo().env("", "COPILOT_CHAT_TARGET_MODEL"));
        t.add(s("copilot_chat_timeout", "model.copilot_chat_timeout", INT, null, "Copilot chat per-call timeout (s)").evalToo().env(600, "COPILOT_CHAT_TIMEOUT"));
        // agent CLI settings of SkillOpt4J's own (issue #33): the Codex chat timeout and the OpenCode backend
        t.add(n("codex_chat_timeout", "model.codex_chat_timeout", FLOAT, "codex_exec as chat model (optimizer) per-call timeout (s)").noFlag().asOurs()
                .env(600, "CODEX_CHAT_TIMEOUT"));
        t.add(n("opencode_exec_path", "model.opencode_exec_path", STR, "OpenCode CLI executable of opencode_exec").noFlag().asOurs()
                .env("opencode", "OPENCODE_EXEC_PATH"));
        t.add(n("opencode_exec_agent", "model.opencode_exec_agent", STR, "OpenCode agent of opencode_exec (run --agent; blank: OpenCode's default)")
                .noFlag().asOurs().env("", "OPENCODE_EXEC_AGENT"));
        t.add(n("opencode_chat_timeout", "model.opencode_chat_timeout", FLOAT, "opencode_exec as chat model (optimizer) per-call timeout (s)").noFlag().asOurs()
                .env(600, "OPENCODE_CHAT_TIMEOUT"));
        t.add(s("codex_trace_to_optimizer", "model.codex_trace_to_optimizer", BOOL, true, "Feed codex_exec target traces to the optimizer"));
        t.add(s("skill_init", "env.skill_init", STR, "", "Initial skill document, or an Agent Skill folder with SKILL.md (missing file = empty skill)"));
        t.add(e("skill_delivery", STR, "How the target gets the skill: prompt (in its prompt), file (a workspace file it is told to read), "
                + "native (installed as an Agent Skill under .claude/skills/<name>/); auto: prompt for chat targets, file for exec targets")
                .withChoices("auto", "prompt", "file", "native").evalToo().consumerDefault("auto").asOurs());
        t.add(s("num_epochs", "train.num_epochs", INT, 4, "Training epochs"));
        t.add(s("train_size", "train.train_size", INT, 0, "Train split size (0 = take it from the split)"));
        t.add(n("steps_per_epoch", "train.steps_per_epoch", INT, "Recomputed by the trainer from train_size, batch_size, accumulation"));
        t.add(s("batch_size", "train.batch_size", INT, 40, "Tasks per step"));
        t.add(s("accumulation", "train.accumulation", INT, 1, "Accumulation rounds per step"));
        t.add(s("seed", "train.seed", INT, 42, "Global seed").evalToo());
        t.add(s("edit_budget", "optimizer.learning_rate", INT, 4, "Max edits per step (the \"learning rate\")"));
        t.add(s("min_edit_budget", "optimizer.min_learning_rate", INT, 2, "Edit-budget floor of decaying schedules"));
        t.add(s("lr_scheduler", "optimizer.lr_scheduler", STR, "cosine", "Edit-budget schedule").withChoices("constant", "linear", "cosine", "autonomous"));
        t.add(s("lr_control_mode", "optimizer.lr_control_mode", STR, "fixed", "Who controls the edit budget").withChoices("fixed", "autonomous", "none"));
        t.add(s("merge_batch_size", "gradient.merge_batch_size", INT, 8, "Patch-merge batch size (>= 2)"));
        t.add(new FlagSpec("max_analyst_rounds", "max_analyst_rounds", "gradient.max_analyst_rounds", INT, false, null,
                "Retired and ignored", List.of(), true, false, false, false, true, null));
        t.add(s("sel_env_num", "evaluation.sel_env_num", INT, 0, "Selection items (0 = whole split)"));
        t.add(s("test_env_num", "evaluation.test_env_num", INT, 0, "Test items (0 = whole split)").evalToo());
        t.add(s("eval_test", "evaluation.eval_test", BOOL, true, "Run the final test evaluation"));
        t.add(s("use_gate", "evaluation.use_gate", BOOL, true, "Validation gate (false accepts every candidate)"));
        t.add(e("max_steps", INT, "Max environment steps per episode (ALFWorld)").consumerDefault(50));
        t.add(e("max_api_workers", INT, "Concurrent optimizer calls; target calls per rollout chunk (ALFWorld)").evalToo().consumerDefault(8));
        t.add(s("analyst_workers", "gradient.analyst_workers", INT, 16, "Parallel reflection workers"));
        t.add(s("failure_only", "gradient.failure_only", BOOL, false, "Reflect on failures only"));
        t.add(s("minibatch_size", "gradient.minibatch_size", INT, 8, "Reflection minibatch size"));
        t.add(s("skill_update_mode", "optimizer.skill_update_mode", STR, "patch", "How the skill is updated").withChoices("patch",
                "rewrite_from_suggestions", "rewrite", "suggestions", "full_rewrite", "full_rewrite_minibatch", "minibatch_full_rewrite"));
        t.add(s("use_slow_update", "optimizer.use_slow_update", BOOL, true, "Epoch-end longitudinal (slow) update"));
        t.add(s("slow_update_samples", "optimizer.slow_update_samples", INT, 20, "Samples of the slow update"));
        t.add(s("longitudinal_pair_policy", "optimizer.longitudinal_pair_policy", STR, "mixed", "Which pairs the slow update compares")
                .withChoices("mixed", "changed", "unchanged"));
        t.add(s("use_meta_skill", "optimizer.use_meta_skill", BOOL, true, "Cross-epoch optimizer memory (meta skill)"));
        t.add(s("use_skill_aware_reflection", "optimizer.use_skill_aware_reflection", BOOL, false, "Split failures into skill defects and execution lapses"));
        t.add(s("skill_aware_appendix_source", "optimizer.skill_aware_appendix_source", STR, "both", "Which rollouts emit appendix notes")
                .withChoices("both", "failure_only"));
        t.add(s("skill_aware_consolidate_threshold", "optimizer.skill_aware_consolidate_threshold", INT, 0, "Consolidate the appendix past N notes (0 = off)"));
        t.add(e("data_path", STR, "Raw data file/dir for ratio splits").evalToo().consumerDefault(""));
        t.add(e("split_mode", STR, "ratio (split data_path) or split_dir (use train/val/test dirs)").evalToo().withChoices("ratio", "split_dir").consumerDefault(""));
        t.add(e("split_ratio", STR, "train:val:test ratio (quote it in YAML)").evalToo().consumerDefault(""));
        t.add(e("split_seed", INT, "Ratio-split shuffle seed (0 = train.seed)").evalToo().consumerDefault(0));
        t.add(e("split_dir", STR, "Directory with train/ val/ test/").evalToo().consumerDefault(""));
        t.add(e("split_output_dir", STR, "Where ratio splits are written").evalToo().consumerDefault(""));
        t.add(e("data_root", STR, "Benchmark data root (SpreadsheetBench: default data/spreadsheetbench_verified_400)").evalToo().consumerDefault(""));
        t.add(e("max_turns", INT, "Max agent turns per item (SpreadsheetBench: default 30)").evalToo().consumerDefault(1));
        t.add(e("workers", INT, "Parallel rollout workers and target calls (unset: the benchmark's default, 8 for the target pool)").evalToo().consumerDefault(8));
        t.add(e("limit", INT, "Truncate each split to N items (0 = all)").consumerDefault(0));
        t.add(e("shuffle_choices", BOOL, "Shuffle answer choices (LiveMathematicianBench)").consumerDefault(true));
        t.add(e("use_theorem", BOOL, "Show theorem context (LiveMathematicianBench)").consumerDefault(false));
        t.add(e("use_sketch", BOOL, "Show proof sketch (LiveMathematicianBench)").consumerDefault(false));
        t.add(e("image_detail", STR, "Image detail level (DocVQA)"));
        t.add(e("judge_model", STR, "Judge model name (\"\" = the optimizer's)").consumerDefault(""));
        t.add(e("judge_max_completion_tokens", INT, "Judge output cap").consumerDefault(2048));
        t.add(e("judge_retries", INT, "Judge retries").consumerDefault(3));
        t.add(s("out_root", "env.out_root", STR, "", "Run folder (blank: outputs/skillopt_<env>_<model>_<timestamp>)").evalToo());
        t.add(e("mode", STR, "Benchmark mode (SpreadsheetBench: multi or single)").evalToo().consumerDefault("multi"));
        // Benchmark knobs without an upstream flag (set them under env: in YAML or with --cfg-options env.KEY=...).
        t.add(k("exec_timeout", FLOAT, 120, "Per-call timeout (s; unset: the benchmark's default)"));
        t.add(k("task_timeout", INT, 0, "Per-item wall timeout (s; 0 = exec_timeout + 60)"));
        t.add(k("max_completion_tokens", INT, 16384, "Output cap of a rollout call"));
        t.add(k("python_executable", STR, "", "Python for benchmark helpers (\"\" = found on PATH)"));
        t.add(k("house_rules_seed", INT, null, "house-rules data seed (unset: env.split_seed, then 42)"));
        t.add(k("house_rules_per_category", INT, 24, "house-rules items per convention"));
        t.add(k("house_rules_split", STR, "2:1:3", "house-rules train:val:test ratio"));
        t.add(k("search_mode", STR, "offline", "OfficeQA search: offline or online"));
        t.add(k("max_tool_turns", INT, 12, "OfficeQA tool turns per item"));
        t.add(k("data_dirs", ANY, null, "OfficeQA document folders, a list or one path, searched before $OFFICEQA_DOCS_DIR and data/officeqa_smoke_docs"));
        t.add(k("turn_delay_seconds", FLOAT, 3, "SpreadsheetBench pause between turns (s)"));
        t.add(k("alfworld_data", STR, "", "ALFWorld data directory (\"\" = env.data_root)"));
        t.add(k("alfworld_bridge", STR, "", "ALFWorld bridge script (\"\" = the bundled one)"));
        t.add(k("swebench_harness", STR, "python3 -m swebench.harness.run_evaluation", "SWE-bench evaluation command"));
        t.add(k("swebench_check_docker", BOOL, true, "Check for docker before SWE-bench runs"));
        t.add(k("harness_timeout", INT, 1800, "SWE-bench harness timeout (s)"));
        t.add(k("use_hints", BOOL, false, "Show SWE-bench hints"));
        t.add(k("swebench_dataset", STR, "princeton-nlp/SWE-bench_Verified", "SWE-bench dataset name"));
        t.add(k("swebench_split", STR, "test", "SWE-bench dataset split"));
        t.add(n("retry_backoff_base_ms", "model.retry_backoff_base_ms", INT, "First retry delay (ms)").noFlag().asOurs().consumerDefault(1000));
        t.add(n("retry_backoff_cap_ms", "model.retry_backoff_cap_ms", INT, "Longest retry delay (ms)").noFlag().asOurs().consumerDefault(30000));
        t.add(n("http_attempts", "model.http_attempts", INT, "Least HTTP attempts per model call for transient faults (429, 5xx, timeouts, resets, cut-off or non-JSON bodies); unreachable servers fail at once")
                .noFlag().asOurs().consumerDefault(10));
        // client-side rate limits and hedged requests of the HTTP backends (docs/backends.md "Rate limits and hedging")
        t.add(n("rate_limit_rpm", "model.rate_limit_rpm", FLOAT, "Requests per minute an HTTP endpoint allows, for providers that send no rate-limit headers (0 = none; x-ratelimit-* / anthropic-ratelimit-* headers are always honoured, the lower limit wins)")
                .noFlag().asOurs().consumerDefault(0.0));
        t.add(n("rate_limit_tpm", "model.rate_limit_tpm", FLOAT, "Tokens per minute an HTTP endpoint allows (0 = none): requests wait while the last minute's replies used them up")
                .noFlag().asOurs().consumerDefault(0.0));
        t.add(n("hedge_quantile", "model.hedge_quantile", FLOAT, "Hedged requests: send a duplicate of an HTTP call still running after this quantile of its stage's latencies, first reply wins (0 = off; e.g. 0.9)")
                .noFlag().asOurs().consumerDefault(0.0));
        t.add(n("hedge_max_extra", "model.hedge_max_extra", FLOAT, "Hedged requests: at most this share of extra calls per call made, in [0, 1]")
                .noFlag().asOurs().consumerDefault(0.05));
        // Flatten-map entries without a flag (set them with --cfg-options).
        t.add(n("meta_edit_budget", "optimizer.meta_learning_rate", INT, "Mapped by upstream but never read").noFlag());
        t.add(s("slow_update_gate_with_selection", "optimizer.slow_update_gate_with_selection", BOOL, false, "Gate the slow update on the selection split").noFlag());
        t.add(n("gate_metric", "evaluation.gate_metric", STR, "Gate metric").noFlag().withChoices("hard", "soft", "mixed").consumerDefault("hard"));
        t.add(n("gate_mixed_weight", "evaluation.gate_mixed_weight", FLOAT, "Soft weight of the mixed gate metric, in [0, 1]").noFlag().consumerDefault(0.5));
        t.add(n("use_semantic_density", "evaluation.use_semantic_density", BOOL, "Semantic-density bonus in selection").noFlag().consumerDefault(false));
        t.add(n("semantic_density_weight", "evaluation.semantic_density_weight", FLOAT, "Weight of the density bonus").noFlag().consumerDefault(0.05));
        t.add(n("leading_words", "evaluation.leading_words", ANY, "Leading words (list or comma-separated string; null = built-in list)").noFlag());
        // SkillOpt4J additions (section model).
        t.add(n("response_cache", "model.response_cache", STR, "Model response cache").evalToo().asOurs()
                .withChoices("off", "read_write", "replay").consumerDefault("off"));
        t.add(n("response_cache_dir", "model.response_cache_dir", STR, "Cache directory (\"\" = <out_root>/.cache/responses)").evalToo().asOurs().consumerDefault(""));
        t.add(n("claude_chat_transport", "model.claude_chat_transport", STR, "claude_chat transport: cli (Claude Code CLI) or api (Anthropic Messages API, ANTHROPIC_API_KEY)")
                .evalToo().asOurs().withChoices("cli", "api").env("cli", "CLAUDE_CHAT_TRANSPORT"));
        // settings of the Claude CLI (claude_chat, claude_code_exec as chat model), Anthropic API, Azure CLI, exec agents
        t.add(n("claude_cli_bin", "model.claude_cli_bin", STR, "Claude CLI executable of claude_chat").noFlag().asOurs().env("claude", "CLAUDE_CLI_BIN"));
        t.add(n("claude_permission_mode", "model.claude_permission_mode", STR, "Claude CLI --permission-mode").noFlag().asOurs()
                .env("dontAsk", "CLAUDE_PERMISSION_MODE"));
        t.add(n("claude_code_exec_permission_mode", "model.claude_code_exec_permission_mode", STR,
                "Claude Code --permission-mode of claude_code_exec (unset: bypassPermissions; as root without IS_SANDBOX=1 or CLAUDE_CODE_BUBBLEWRAP, dontAsk)")
                .evalToo().asOurs().env("", "CLAUDE_CODE_EXEC_PERMISSION_MODE"));
        t.add(n("claude_setting_sources", "model.claude_setting_sources", STR, "Claude CLI --setting-sources (CLAUDE_SETTING_SOURCES, even blank, wins over the default)")
                .noFlag().asOurs().env("user,project", "CLAUDE_SETTING_SOURCES"));
        t.add(n("claude_allow_attachment_read", "model.claude_allow_attachment_read", STR, "Let the Claude CLI read attached images (0, false, no: off)")
                .noFlag().asOurs().env("1", "CLAUDE_ALLOW_ATTACHMENT_READ"));
        t.add(n("claude_chat_timeout", "model.claude_chat_timeout", FLOAT, "claude_chat (cli) per-call timeout (s)").noFlag().asOurs().env(300));
        t.add(n("anthropic_api_key", "model.anthropic_api_key", STR, "Anthropic key of claude_chat (api) (prefer ANTHROPIC_API_KEY)").noFlag().asOurs()
                .secretEnv("ANTHROPIC_API_KEY"));
        t.add(n("anthropic_base_url", "model.anthropic_base_url", STR, "Anthropic Messages API base URL").noFlag().asOurs()
                .env("https://api.anthropic.com", "ANTHROPIC_BASE_URL"));
        t.add(n("az_path", "model.az_path", STR, "Azure CLI executable (auth mode azure_cli)").noFlag().asOurs().env("az", "AZ_PATH"));
        t.add(n("exec_empty_response_retries", "model.exec_empty_response_retries", INT, "Retries of an agent CLI call that answered nothing")
                .noFlag().asOurs().env(1, "EXEC_EMPTY_RESPONSE_RETRIES"));
        t.add(n("claude_trace_to_optimizer", "model.claude_trace_to_optimizer", BOOL, "Feed claude_code_exec target traces (parsed steps) to the optimizer")
                .asOurs().consumerDefault(true));
        t.add(n("json_reask", "model.json_reask", BOOL, "Re-ask the optimizer when a reply holds no JSON object (SkillOpt never does; off by default)")
                .asOurs().consumerDefault(false));
        t.add(n("price_table", "model.price_table", STR, "YAML/JSON price table (file or inline map) replacing or adding entries of the bundled one (docs/cost.md)").evalToo().asOurs().consumerDefault(""));
        t.add(n("background_eval", "train.background_eval", BOOL, "Run the initial skill's test evaluation and the slow update's previous-skill rollout ahead of time, in rollout slots the optimizer stages leave idle")
                .asOurs().consumerDefault(true));
        t.add(n("pipeline_stages", "train.pipeline_stages", BOOL, "Start stages as soon as their inputs exist: step 1's rollout alongside the baseline, each step's rollout as soon as the previous gate is decided, the meta skill alongside the slow update, a batch's analysts while the next accumulation batch rolls out (same run folder as false)")
                .asOurs().consumerDefault(true));
        t.add(n("max_errored_fraction", "train.max_errored_fraction", FLOAT, "Share of a stage's rollout items or analyst calls that may fail after their retries (errored) "
                + "before the run stops at that step, resumable; 0 = any errored input stops it (docs/training.md)")
                .asOurs().consumerDefault(0.0));
        t.add(n("prompt_cache", "model.prompt_cache", STR, "Prompt-caching hints: OpenAI prompt_cache_key, Anthropic cache_control (auto = the providers' own endpoints)")
                .evalToo().asOurs().withChoices("auto", "on", "off").consumerDefault("auto"));
        // run-folder ownership (docs/training.md "Resuming"): switches of one command, not recorded in config.json
        t.add(o("force_new", "force-new", "train.force_new", BOOL, false, "Start the run folder afresh: move an existing run aside to <out_root>.replaced-<time>"));
        t.add(o("extend_epochs", "extend-epochs", "train.extend_epochs", BOOL, false, "Let a finished or stopped run continue with a larger num_epochs (nothing else may change)"));
        // no flags: a --batch_* flag would take --batch away from --batch_size as argparse's unique prefix
        t.add(n("batch_api", "evaluation.batch_api", BOOL, "Send evaluation rollouts (baseline, selection, test, slow-update comparisons) through the provider's Batch API at its discount")
                .noFlag().asOurs().consumerDefault(false));
        t.add(n("batch_poll_seconds", "evaluation.batch_poll_seconds", FLOAT, "Seconds between Batch API status polls")
                .noFlag().asOurs().consumerDefault(30.0));
        t.add(n("budget_usd", "budget.max_usd", FLOAT, "Hard cap in US dollars over the whole run, checked before each model call (0 = no cap)")
                .evalToo().asOurs().consumerDefault(0.0));
        // The honest validation gate and error bars (docs/training.md "The honest gate"): SkillOpt4J's, off by default
        t.add(n("gate_test", "evaluation.gate_test", STR, "How the gate compares candidate and current skill: none (SkillOpt's: higher selection score) "
                + "or paired_bootstrap (accept when the one-sided Student-t lower bound of the paired mean gain is above 0)")
                .asOurs().withChoices("none", "paired_bootstrap").consumerDefault("none"));
        t.add(n("gate_confidence", "evaluation.gate_confidence", FLOAT, "Confidence of the paired_bootstrap gate's one-sided bound, in [0.5, 1)")
                .asOurs().consumerDefault(0.95));
        t.add(n("eval_repeats", "evaluation.eval_repeats", INT, "Evaluations of each selection item per skill, averaged (a stochastic target answers each anew)")
                .asOurs().consumerDefault(1));
        t.add(n("adaptive_repeats", "evaluation.adaptive_repeats", BOOL, "paired_bootstrap: add one repeat of both skills at a time while the interval straddles 0, up to max_repeats")
                .asOurs().consumerDefault(true));
        t.add(n("max_repeats", "evaluation.max_repeats", INT, "Cap of adaptive_repeats (>= eval_repeats)")
                .asOurs().consumerDefault(8));
        // Execution engine (section engine): where rollouts and optimizer calls run; see docs/scale-out.md.
        t.add(o("engine_name", "engine", "engine.name", STR, "local", "Execution engine: local (this JVM's threads) or temporal (activities on Temporal workers)")
                .withChoices("local", "temporal"));
        t.add(o("engine_address", "engine_address", "engine.address", STR, "localhost:7233", "Temporal frontend HOST:PORT"));
        t.add(o("engine_namespace", "engine_namespace", "engine.namespace", STR, "default", "Temporal namespace"));
        t.add(o("engine_task_queue", "engine_task_queue", "engine.task_queue", STR, "skillopt", "Task-queue prefix: <q> (stage workflows), <q>.rollout and <q>.optimizer (activities)"));
        t.add(o("engine_tls_cert", "engine_tls_cert", "engine.tls_cert", STR, "", "Client certificate (PEM) for mTLS to a real cluster (\"\" = plaintext)"));
        t.add(o("engine_tls_key", "engine_tls_key", "engine.tls_key", STR, "", "Client private key (PKCS#8 PEM) for mTLS"));
        t.add(o("engine_tls_ca", "engine_tls_ca", "engine.tls_ca", STR, "", "CA bundle (PEM) that signed the server certificate (\"\" = system trust)"));
        t.add(o("engine_heartbeat_s", "engine_heartbeat_s", "engine.heartbeat_s", INT, 20, "Activity heartbeat timeout (s): a silent worker's activity is retried elsewhere after this"));
        t.add(o("engine_max_attempts", "engine_max_attempts", "engine.max_attempts", INT, 10, "Attempts per activity (worker losses, store errors) before the run fails"));
        // openai_compatible settings, named as newer upstream names them (0.2.0 has env vars only).
        for (String role : List.of("", "optimizer_", "target_")) {
            String who = role.isEmpty() ? "Shared" : role.equals("optimizer_") ? "Optimizer" : "Target";
            String p = role + "openai_compatible_";
            String env = role.toUpperCase(java.util.Locale.ROOT) + "OPENAI_COMPATIBLE_";
            boolean shared = role.isEmpty();
            t.add(roleEnv(shared, "", n(p + "base_url", "model." + p + "base_url", STR, who + " openai_compatible base URL"
                    + (shared ? " (required, no default server)" : "")).evalToo().asOurs().consumerDefault("")));
            FlagSpec key = n(p + "api_key", "model." + p + "api_key", STR, who + " openai_compatible key (prefer " + env + "API_KEY)")
                    .evalToo().asOurs().consumerDefault("");
            t.add(shared ? key.secretEnv(roleForms("OPENAI_COMPATIBLE_API_KEY")) : key);
            t.add(roleEnv(shared, null, n(p + "temperature", "model." + p + "temperature", FLOAT, who + " openai_compatible temperature (unset, \"\", none, off: omitted)")
                    .evalToo().asOurs()));
            t.add(roleEnv(shared, 300, n(p + "timeout_seconds", "model." + p + "timeout_seconds", FLOAT, who + " openai_compatible request timeout (s)")
                    .evalToo().asOurs()));
            t.add(roleEnv(shared, 8000, n(p + "max_tokens", "model." + p + "max_tokens", INT, who + " openai_compatible max output tokens")
                    .evalToo().asOurs()));
        }
        ALL = Collections.unmodifiableList(t);
        for (FlagSpec f : ALL) {
            BY_KEY.put(f.key(), f);
            BY_PATH.put(f.path(), f);
            if (f.flag() != null) BY_FLAG.put(f.flag(), f);
        }
    }

    private Flags() {}

    private static boolean mappedPath(String path) {
        return !path.startsWith("env.") || path.equals("env.name") || path.equals("env.skill_init") || path.equals("env.out_root");
    }

    /** A row set in the base YAML with a flag of the same name on train (eval via evalToo). */
    private static FlagSpec s(String key, String path, FlagType type, Object def, String help) {
        String flag = key.equals("model_backend") ? "backend" : key;
        return new FlagSpec(key, flag, path, type, true, def, help, List.of(), true, false, mappedPath(path), false, false, null);
    }

    /** A mapped row not set in the base YAML. */
    private static FlagSpec n(String key, String path, FlagType type, String help) {
        return new FlagSpec(key, key, path, type, false, null, help, List.of(), true, false, mappedPath(path), false, false, null);
    }

    /** A SkillOpt4J row outside upstream's sections, with its own flag name and consumer default. */
    private static FlagSpec o(String key, String flag, String path, FlagType type, Object def, String help) {
        return new FlagSpec(key, flag, path, type, false, def, help, List.of(), true, false, true, true, false, null);
    }

    /** A benchmark knob under {@code env.}: no CLI flag, not in the flatten map, a SkillOpt4J row with its default. */
    private static FlagSpec k(String key, FlagType type, Object def, String help) {
        return new FlagSpec(key, null, "env." + key, type, false, def, help, List.of(), false, false, false, true, false, null);
    }

    /** An {@code env.*} pass-through flag (not in the flatten map). */
    private static FlagSpec e(String key, FlagType type, String help) {
        return new FlagSpec(key, key, "env." + key, type, false, null, help, List.of(), true, false, false, false, false, null);
    }

    /** {@code {ROLE}_NAME, NAME}: the environment names of a key the roles may set apart (config.ModelSettings). */
    private static String[] roleForms(String name) { return new String[] {"{ROLE}_" + name, name}; }
    /** The shared row of a role-scoped key reads {@code {ROLE}_<KEY>} then {@code <KEY>}; its role rows carry nothing more. */
    private static FlagSpec roleEnv(boolean shared, Object fallback, FlagSpec row) {
        return shared ? row.env(fallback, roleForms(row.key().toUpperCase(java.util.Locale.ROOT))) : row;
    }

    /** Azure's role forms: {@code {ROLE}_AZURE_OPENAI_X}, {@code AZURE_OPENAI_{ROLE}_X}, then {@code AZURE_OPENAI_X}. */
    private static FlagSpec azure(boolean shared, Object fallback, FlagSpec row) {
        if (!shared) return row;
        String x = row.key().substring("azure_openai_".length()).toUpperCase(java.util.Locale.ROOT);
        return row.env(fallback, "{ROLE}_AZURE_OPENAI_" + x, "AZURE_OPENAI_{ROLE}_" + x, "AZURE_OPENAI_" + x);
    }

    public static Optional<FlagSpec> byKey(String flatKey) { return Optional.ofNullable(BY_KEY.get(flatKey)); }

    public static Optional<FlagSpec> byPath(String path) { return Optional.ofNullable(BY_PATH.get(path)); }

    /** The row of a CLI flag name (without dashes). */
    public static Optional<FlagSpec> byFlag(String flag) { return Optional.ofNullable(BY_FLAG.get(flag)); }

    /** Returns the flatten map (structured path → flat key) in table order: upstream's entries plus ours. */
    public static Map<String, String> flattenMap() { return flattenMap(f -> true); }

    /** Returns upstream's flatten map (without SkillOpt4J additions). */
    public static Map<String, String> upstreamFlattenMap() { return flattenMap(f -> !f.ours()); }

    private static Map<String, String> flattenMap(Predicate<FlagSpec> which) {
        Map<String, String> m = new LinkedHashMap<>();
        for (FlagSpec f : ALL) if (f.mapped() && which.test(f)) m.put(f.path(), f.key());
        return m;
    }

    /** Returns the rows that are flags of {@code train} (eval = false) or {@code eval} (eval = true). */
    public static List<FlagSpec> flags(boolean eval) {
        return ALL.stream().filter(f -> f.flag() != null && (eval ? f.eval() : f.train())).toList();
    }

    /** Returns the structured target of a legacy flag: its path, or {@code env.<flag>} when it has none. */
    public static String structuredTarget(String flag) {
        FlagSpec f = BY_FLAG.get(flag);
        return f != null ? f.path() : "env." + flag;
    }
}
