package io.skillopt4j.env;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stateless. A small RFC 4180 reader (quoted fields, doubled quotes, newlines inside quotes), as Python's csv module reads. */
public final class Csv {
    private Csv() {}

    /** Parses CSV text with a header row into maps (header → cell); a UTF-8 BOM is ignored. */
    public static List<Object> parse(String text) {
        List<List<String>> rows = rows(text.startsWith("\uFEFF") ? text.substring(1) : text);
        List<Object> out = new ArrayList<>();
        if (rows.isEmpty()) return out;
        List<String> header = rows.get(0);
        for (int r = 1; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            if (row.size() == 1 && row.get(0).isEmpty()) continue;
            Map<String, Object> m = new LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) m.put(header.get(c), c < row.size() ? row.get(c) : "");
            out.add(m);
        }
        return out;
    }

    static List<List<String>> rows(String s) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < s.length() && s.charAt(i + 1) == '"') { cell.append('"'); i++; } else quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') i++;
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                cell.append(c);
            }
            i++;
        }
        if (cell.length() > 0 || !row.isEmpty()) {
            row.add(cell.toString());
            rows.add(row);
        }
        return rows;
    }
}
