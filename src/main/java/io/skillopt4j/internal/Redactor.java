package io.skillopt4j.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Thread-safe. The one place that hides secrets in config dumps, traces, logs and exception messages. Every value
 * seen under a secret-named key is also scrubbed from free text, process-wide on purpose: a secret read by one run
 * must stay hidden in every log line of the process.
 */
public final class Redactor {
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}");
    private static final Pattern SK = Pattern.compile("\\b(sk-[A-Za-z0-9_-]{6})[A-Za-z0-9_-]{10,}");
    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

    private Redactor() {}

    /** A key that names a secret ('-' read as '_'); '.' stops at a line break, as upstream's regex does. */
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(api_?key|token|secret|password|authorization)");

    /** Whether a config/header key names a secret (its name ends in api_key, token, secret, ...). */
    public static boolean isSecretKey(String key) {
        return key != null && SECRET_KEY.matcher(key.replace('-', '_')).matches();
    }

    /** Remembers a secret value so that {@link #scrub(String)} removes it from any text. */
    public static void remember(String secret) {
        if (secret != null && secret.length() >= 6) KNOWN.add(secret);
    }

    /** Masks one value the way upstream's config dump does: ≤ 8 chars → asterisks, else first4...last4. */
    public static String mask(String value) {
        if (value == null || value.isEmpty()) return value;
        if (value.length() <= 8) return "*".repeat(value.length());
        return value.substring(0, 4) + "..." + value.substring(value.length() - 4);
    }

    /** A deep copy of {@code map} with every secret-named key's string value masked. */
    public static Map<String, Object> redact(Map<String, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : map.entrySet()) {
            Object v = e.getValue();
            if (isSecretKey(e.getKey()) && v instanceof String s && !s.isEmpty()) {
                remember(s);
                out.put(e.getKey(), mask(s));
            } else {
                out.put(e.getKey(), redactValue(v));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object redactValue(Object v) {
        if (v instanceof Map<?, ?> m) return redact((Map<String, ?>) m);
        if (v instanceof List<?> l) {
            return l.stream().map(Redactor::redactValue).collect(Collectors.toCollection(ArrayList::new));
        }
        return v;
    }

    /** Removes remembered secrets, bearer tokens and sk- style keys from free text. */
    public static String scrub(String text) {
        if (text == null || text.isEmpty()) return text;
        String out = text;
        // longest first, so a secret that contains another remembered secret is masked whole
        for (String s : KNOWN.stream().sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList()) {
            if (out.contains(s)) out = out.replace(s, mask(s));
        }
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + "***"));
        out = SK.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + "***"));
        return out;
    }
}
