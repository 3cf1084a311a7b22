package io.skillopt4j.config;

import io.skillopt4j.config.BackendNames.RolePair;
import io.skillopt4j.config.ConfigRequest.Override;

import java.util.Map;

/**
 * Immutable (static functions). Backend label → role backends → model defaults, as {@code scripts/train.py}
 * (and {@code eval_only.py}) do it, including the seed fork's rule for a {@code claude_code_exec} optimizer.
 * Runs once; nothing re-resolves later (upstream's trainer does, and can undo explicit role choices).
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
        if (!optModelExplicit && BackendNames.isSentinel(flat.get("optimizer_model"))) {
            if (BackendNames.CLAUDE_CHAT.equals(ob)) {
                flat.put("optimizer_model", BackendNames.defaultModel(BackendNames.CLAUDE_CHAT));
            } else if (!eval && BackendNames.CLAUDE_CODE_EXEC.equals(ob)) {
                // Seed fork (train only): the optimizer runs on Claude, so a GPT placeholder cannot be meant.
                flat.put("optimizer_model", BackendNames.defaultModel(BackendNames.CLAUDE_CODE_EXEC));
            } else if (!eval && BackendNames.QWEN_CHAT.equals(ob)) {
                flat.put("optimizer_model", BackendNames.defaultModel(BackendNames.QWEN_CHAT));
            }
        }
        if (!tgtModelExplicit && BackendNames.isSentinel(flat.get("target_model"))) {
            if (BackendNames.CLAUDE_CHAT.equals(tb) || BackendNames.CLAUDE_CODE_EXEC.equals(tb)) {
                flat.put("target_model", BackendNames.defaultModel(BackendNames.CLAUDE_CHAT));
            } else if (BackendNames.CURSOR_EXEC.equals(tb)) {
                flat.put("target_model", BackendNames.defaultModel(BackendNames.CURSOR_EXEC));
            } else if (BackendNames.COPILOT_EXEC.equals(tb)) {
                flat.put("target_model", "");
            } else if (!eval && BackendNames.QWEN_CHAT.equals(tb)) {
                flat.put("target_model", BackendNames.defaultModel(BackendNames.QWEN_CHAT));
            } else if (BackendNames.MINIMAX_CHAT.equals(tb)) {
                Object mm = flat.get("minimax_model");
                flat.put("target_model", ConfigResolver.truthy(mm) ? Coercion.pyStr(mm)
                        : BackendNames.defaultModel(BackendNames.MINIMAX_CHAT));
            }
        }
    }

    /** --backend, else the first --cfg-options model.backend (raw text), else model_backend/backend of the config. */
    private static Object explicitBackend(ConfigRequest req, Map<String, Object> flat) {
        Object flag = req.flags().get("backend");
        if (flag != null) return flag;
        for (Override o : req.overrides()) {
            if (o.key().strip().equals("model.backend")) return o.raw().strip();
        }
        Object mb = flat.get("model_backend");
        return ConfigResolver.truthy(mb) ? mb : flat.get("backend");
    }

    /** A role/model counts as explicit when its legacy flag was given or {@code --cfg-options <dotted>=} was. */
    private static boolean explicit(ConfigRequest req, String flag, String dotted) {
        if (req.flags().get(flag) != null) return true;
        for (Override o : req.overrides()) if (o.key().strip().equals(dotted)) return true;
        return false;
    }
}
