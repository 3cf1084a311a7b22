package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlagSpec.FlagType;

import java.util.List;
import java.util.Locale;

/**
 * Immutable (static functions). Converts legacy flag text as upstream's argparse types do, choices checked; errors
 * read like argparse's ({@code argument --batch_size: invalid int value: 'x'}).
 */
public final class FlagValues {
    private FlagValues() {}

    /** Converts CLI text for {@code spec}; {@code evalChoices} applies eval_only's --backend choices. */
    public static Object parse(FlagSpec spec, String text, boolean evalChoices) {
        String arg = "argument --" + spec.flag() + ": ";
        Object v = switch (spec.type()) {
            case INT -> Coercion.pythonInt(text).map(n -> (Object) n)
                    .orElseThrow(() -> new ConfigException(arg + "invalid int value: " + Coercion.pyRepr(text)));
            case FLOAT -> Coercion.pythonFloat(text).map(d -> (Object) d)
                    .orElseThrow(() -> new ConfigException(arg + "invalid float value: " + Coercion.pyRepr(text)));
            case BOOL -> parseBool(text);
            default -> text;
        };
        List<String> choices = choices(spec, evalChoices);
        if (!choices.isEmpty() && !choices.contains(text)) {
            String c = Suggest.closest(text, choices);
            // openai_chat is a role backend, not a --backend label: its label is azure_openai
            if (c == null && "backend".equals(spec.flag()) && BackendNames.OPENAI_CHAT.equals(Suggest.closest(text, List.of(BackendNames.OPENAI_CHAT))))
                c = BackendNames.AZURE_OPENAI + " (the label of the openai_chat backend)";
            throw new ConfigException(arg + "invalid choice: " + Coercion.pyRepr(text) + " (choose from "
                    + String.join(", ", choices.stream().map(Coercion::pyRepr).toList()) + ")"
                    + (c == null ? "" : "; did you mean " + c + "?"));
        }
        return v;
    }

    /** eval_only's --backend has no qwen/qwen_chat. */
    public static List<String> choices(FlagSpec spec, boolean eval) {
        if (!eval || !"backend".equals(spec.flag())) return spec.choices();
        return spec.choices().stream().filter(c -> !c.startsWith("qwen")).toList();
    }

    /** Upstream's {@code _BOOL}: true iff the lower-cased text is true, 1 or yes; anything else is false. */
    public static boolean parseBool(String text) {
        String l = text.toLowerCase(Locale.ROOT);
        return l.equals("true") || l.equals("1") || l.equals("yes");
    }

    /** Converts a value given from code (notebook builder) for a flag: strings are parsed like CLI text. */
    public static Object fromCode(String flag, Object value, boolean eval) {
        FlagSpec spec = Flags.byFlag(flag).filter(f -> eval ? f.eval() : f.train()).orElseThrow(() -> {
            String c = Suggest.closest(flag, Flags.flags(eval).stream().map(FlagSpec::flag).toList());
            return new ConfigException("unknown flag --" + flag + (c == null ? "" : "; did you mean --" + c + "?"));
        });
        if (value == null) return null;
        if (value instanceof String s) return parse(spec, s, eval);
        FlagType t = spec.type();
        boolean ok = switch (t) {
            case INT -> value instanceof Integer || value instanceof Long;
            case FLOAT -> value instanceof Number;
            case BOOL -> value instanceof Boolean;
            default -> false;
        };
        if (!ok) {
            throw ConfigException.badValue("", "--" + flag, value, "a " + t.name().toLowerCase(Locale.ROOT) + " value");
        }
        return t == FlagType.FLOAT ? ((Number) value).doubleValue() : value;
    }
}
