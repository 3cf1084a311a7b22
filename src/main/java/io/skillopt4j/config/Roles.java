package io.skillopt4j.config;

import io.skillopt4j.config.BackendNames.RolePair;
import io.skillopt4j.config.ConfigRequest.Override;

import java.util.Map;

/**
 * Immutable (static functions). Backend label → role backends → model defaults, as {@code scripts/train.py} (and
 * {@code eval_only.py}) do it. Runs once: upstream's trainer re-resolves, and can undo explicit role choices.
 */
final class Roles {
    private Roles() {}

    static void resolve(ConfigRequest req, Map<String, Object> flat) {
        boolean eval = req.eval();
        Object explicit = explicitBackend(req, flat);
        boolean optExplicit = explicit(req, "optimizer_backend", "model.optimizer_backend");
        boolean tgtExplicit = explicit(req, "target_backend", "model.target_backend");
        if (explicit != null) {
            String label = BackendNames.normalize(ConfigResolver.truthy(explicit) ? Coercion.pyStr(explicit) : "");
            flat.put("model_backend", label);
            RolePair pair = BackendNames.pairing(label, eval);
            if (!optExplicit && BackendNames.isRoleDefault(flat.get("optimizer_backend"))) {
                flat.put("optimizer_backend", pair.optimizer());
            }
            if (!tgtExplicit && BackendNames.isRoleDefault(flat.get("target_backend"))) {
                flat.put("target_backend", pair.target());
            }
        } else {
            // setdefault semantics: an existing null or "" is kept (Map.putIfAbsent would replace null).
            if (!flat.containsKey("optimizer_backend")) flat.put("optimizer_backend", BackendNames.OPENAI_CHAT);
            if (!flat.containsKey("target_backend")) flat.put("target_backend", BackendNames.OPENAI_CHAT);
        }
        boolean optModelExplicit = explicit(req, "optimizer_model", "model.optimizer");
        boolean tgtModelExplicit = explicit(req, "target_model", "model.target");
        Object ob = flat.get("optimizer_backend");
        Object tb = flat.get("target_backend");
        if (!optModelExplicit && BackendNames.isSentinel(flat.get("optimizer_model")) && ob instanceof String b) {
            // claude_code_exec: the seed fork's rule (train only), an optimizer on Claude cannot mean a GPT placeholder
            boolean replaced = b.equals(BackendNames.CLAUDE_CHAT)
                    || !eval && (b.equals(BackendNames.CLAUDE_CODE_EXEC) || b.equals(BackendNames.QWEN_CHAT));
            if (replaced) flat.put("optimizer_model", BackendNames.defaultModel(b));
        }
        if (!tgtModelExplicit && BackendNames.isSentinel(flat.get("target_model")) && tb instanceof String b) {
            Object mm = flat.get("minimax_model");
            String model = switch (b) {
                case BackendNames.CLAUDE_CHAT, BackendNames.CLAUDE_CODE_EXEC ->
                        BackendNames.defaultModel(BackendNames.CLAUDE_CHAT);
                case BackendNames.CURSOR_EXEC -> BackendNames.defaultModel(BackendNames.CURSOR_EXEC);
                case BackendNames.COPILOT_EXEC -> "";
                case BackendNames.QWEN_CHAT -> eval ? null : BackendNames.defaultModel(BackendNames.QWEN_CHAT);
                case BackendNames.MINIMAX_CHAT ->
                        ConfigResolver.truthy(mm) ? Coercion.pyStr(mm) : BackendNames.defaultModel(b);
                default -> null;
            };
            if (model != null) flat.put("target_model", model);
        }
    }

    /** --backend, else the first --cfg-options model.backend (raw text), else model_backend/backend of the config. */
    private static Object explicitBackend(ConfigRequest req, Map<String, Object> flat) {
        Object flag = req.flags().get("backend");
        if (flag != null) return flag;
        for (Override o : req.overrides()) if (o.key().strip().equals("model.backend")) return o.raw().strip();
        Object mb = flat.get("model_backend");
        return ConfigResolver.truthy(mb) ? mb : flat.get("backend");
    }

    /** A role/model counts as explicit when its legacy flag was given or {@code --cfg-options <dotted>=} was. */
    private static boolean explicit(ConfigRequest req, String flag, String dotted) {
        return req.flags().get(flag) != null || req.overrides().stream().anyMatch(o -> o.key().strip().equals(dotted));
    }
}
