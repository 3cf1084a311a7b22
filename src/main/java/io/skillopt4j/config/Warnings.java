package io.skillopt4j.config;

import io.skillopt4j.config.ConfigRequest.Override;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Immutable (static functions). Upstream's credential-on-CLI warnings and SkillOpt4J's unknown-key checks. */
final class Warnings {
    /** Flag → guidance, in upstream's order (plus our openai_compatible key, worded as newer upstream does). */
    static final Map<String, String> CREDENTIAL_FLAGS = new LinkedHashMap<>();
    private static final Map<String, String> CREDENTIAL_LEAVES = new LinkedHashMap<>();
    private static final List<String> SUFFIXES = List.of("api_key", "api-key", "token", "secret", "password");

    static {
        CREDENTIAL_FLAGS.put("azure_api_key", "AZURE_OPENAI_API_KEY or --azure_openai_auth_mode=managed_identity");
        for (String k : List.of("azure_openai_api_key", "optimizer_azure_openai_api_key",
                "target_azure_openai_api_key")) {
            String auth = k.replace("api_key", "auth_mode");
            CREDENTIAL_FLAGS.put(k, k.toUpperCase(Locale.ROOT) + " or --" + auth + "=managed_identity");
        }
        // the others name the flag's own environment variable
        for (String k : List.of("qwen_chat_api_key", "optimizer_qwen_chat_api_key", "target_qwen_chat_api_key",
                "minimax_api_key", "openai_compatible_api_key", "optimizer_openai_compatible_api_key",
                "target_openai_compatible_api_key")) {
            CREDENTIAL_FLAGS.put(k, k.toUpperCase(Locale.ROOT));
        }
        CREDENTIAL_LEAVES.putAll(CREDENTIAL_FLAGS);
        CREDENTIAL_LEAVES.put("optimizer_minimax_api_key", "MINIMAX_API_KEY");
        CREDENTIAL_LEAVES.put("target_minimax_api_key", "MINIMAX_API_KEY");
    }

    private Warnings() {}

    /** Adds the DeprecationWarnings for secrets given as flags, then as {@code --cfg-options}; never the secret. */
    static void credentials(ConfigRequest req, List<ConfigWarning> out) {
        for (Map.Entry<String, String> e : CREDENTIAL_FLAGS.entrySet()) {
            if (ConfigResolver.truthy(req.flags().get(e.getKey()))) {
                out.add(new ConfigWarning(ConfigWarning.DEPRECATION, "--" + e.getKey()
                        + " is deprecated: provide credentials via " + e.getValue() + " instead."));
            }
        }
        for (Override o : req.overrides()) {
            String key = o.key().strip();
            String folded = key.toLowerCase(Locale.ROOT);
            String leaf = folded.substring(folded.lastIndexOf('.') + 1);
            String guidance = CREDENTIAL_LEAVES.get(leaf);
            if (guidance == null && SUFFIXES.stream().anyMatch(leaf::endsWith)) {
                guidance = "a backend-specific environment variable or managed identity";
            }
            if (guidance != null && !o.raw().isEmpty()) {
                out.add(new ConfigWarning(ConfigWarning.DEPRECATION, "--cfg-options " + key
                        + "=... exposes a credential in the process command line: provide it via " + guidance + " instead."));
            }
        }
    }

    /** Warns about a {@code --cfg-options} key the table does not know; {@code env.*} keys pass silently. */
    static void checkOverrideKey(String rawKey, List<ConfigWarning> out) {
        String key = rawKey.strip();
        int dot = key.indexOf('.');
        if (dot >= 0) {
            String section = key.substring(0, dot);
            String sub = key.substring(dot + 1);
            if (section.equals("env")) return;
            if (section.equals("model")) sub = ConfigLoader.canonicalKey(sub);
            String path = section + "." + sub;
            if (Flags.byPath(path).isPresent() || Flags.DROPPED_BASE_KEYS.contains(path)) return;
            String what = Flags.SECTIONS.contains(section) ? "unknown key " + path : "unknown section " + section;
            out.add(new ConfigWarning(ConfigWarning.USER, "--cfg-options " + key + ": " + what
                    + " (benchmark-specific keys belong under env.)" + Suggest.didYouMean(path)));
            return;
        }
        String k = ConfigLoader.canonicalKey(key);
        if (Flags.byKey(k).isPresent() || Flags.byFlag(k).isPresent() || k.equals("backend")) return;
        out.add(new ConfigWarning(ConfigWarning.USER, "--cfg-options " + key + ": unknown key " + key
                + " (benchmark-specific keys belong under env.)" + Suggest.didYouMean(key)));
    }

    /** Warns when {@code model.backend} is not a backend label: it would silently run as azure_openai. */
    static void checkBackendLabel(Object label, List<ConfigWarning> out) {
        if (!ConfigResolver.truthy(label) || BackendNames.isKnown(Coercion.pyStr(label))) return;
        String v = Coercion.pyStr(label);
        FlagSpec f = Flags.byFlag("backend").orElseThrow();
        out.add(new ConfigWarning(ConfigWarning.USER, "model.backend (model_backend) must be one of "
                + String.join(", ", f.choices()) + ", got \"" + v + "\" (it would run as azure_openai)"
                + Suggest.didYouMean(v, f.choices())));
    }
}
