package io.skillopt4j.internal;

/** Thread-safe (stateless). The one HTML escaper: text into element content or a quoted attribute value. */
public final class HtmlText {
    private HtmlText() {}

    /** Escapes {@code < > & " '}. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
