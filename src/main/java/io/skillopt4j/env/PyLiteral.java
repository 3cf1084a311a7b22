package io.skillopt4j.env;

import java.util.ArrayList;
import java.util.List;

/** Stateless. Parses the Python-literal string lists some upstream CSVs hold (e.g. {@code ['x', "y's"]}). */
public final class PyLiteral {
    private PyLiteral() {}

    /** The strings of a list literal (Python or JSON quoting); a non-list text is one answer; null when malformed. */
    public static List<String> stringList(String text) {
        String t = text.trim();
        if (!t.startsWith("[") || !t.endsWith("]")) return List.of(text);
        List<String> out = new ArrayList<>();
        int i = 1;
        int end = t.length() - 1;
        while (i < end) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c) || c == ',') { i++; continue; }
            if (c != '\'' && c != '"') {
                int j = i;
                while (j < end && t.charAt(j) != ',') j++;
                out.add(t.substring(i, j).trim());
                i = j;
                continue;
            }
            StringBuilder sb = new StringBuilder();
            int j = i + 1;
            boolean closed = false;
            while (j < end) {
                char d = t.charAt(j);
                if (d == '\\' && j + 1 < end) {
                    char e = t.charAt(j + 1);
                    sb.append(switch (e) { case 'n' -> '\n'; case 't' -> '\t'; case 'r' -> '\r'; default -> e; });
                    j += 2;
                    continue;
                }
                if (d == c) { closed = true; break; }
                sb.append(d);
                j++;
            }
            if (!closed) return null;
            out.add(sb.toString());
            i = j + 1;
        }
        return out;
    }
}
