package io.skillopt4j.internal;

import java.util.regex.Pattern;

/** Thread-safe (stateless). The one HTML escaper: text into element content or a quoted attribute value. */
public final class HtmlText {
    private static final Pattern SPECIAL = Pattern.compile("[<>&\"']");

    private HtmlText() {}

    /** Escapes {@code < > & " '}. */
    public static String escape(String s) {
        return SPECIAL.matcher(s).replaceAll(m -> switch (m.group()) {
            case "<" -> "&lt;";
            case ">" -> "&gt;";
            case "&" -> "&amp;";
            case "\"" -> "&quot;";
            default -> "&#39;";
        });
    }
}
