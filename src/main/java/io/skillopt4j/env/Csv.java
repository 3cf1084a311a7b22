package io.skillopt4j.env;

import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stateless. Reads a split's CSV file as Python's {@code csv.DictReader} does. */
public final class Csv {
    private Csv() {}

    /** Parses CSV text with a header row into maps (header → cell); a UTF-8 BOM is ignored. */
    public static List<Object> parse(String text) {
        List<Object> out = new ArrayList<>();
        List<String[]> rows = parser().parseAll(new StringReader(text.startsWith("\uFEFF") ? text.substring(1) : text));
        if (rows.isEmpty()) return out;
        String[] header = rows.get(0);
        for (String[] row : rows.subList(1, rows.size())) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) m.put(header[c], c < row.length && row[c] != null ? row[c] : "");
            out.add(m);
        }
        return out;
    }

    private static CsvParser parser() {
        CsvParserSettings s = new CsvParserSettings();
        s.setLineSeparatorDetectionEnabled(true);
        s.setIgnoreLeadingWhitespaces(false);
        s.setIgnoreTrailingWhitespaces(false);
        s.setIgnoreLeadingWhitespacesInQuotes(false);
        s.setIgnoreTrailingWhitespacesInQuotes(false);
        s.setNormalizeLineEndingsWithinQuotes(false);
        s.setSkipEmptyLines(true);
        s.setNullValue("");
        s.setEmptyValue("");
        s.setMaxCharsPerColumn(-1);
        s.setMaxColumns(100_000);
        return new CsvParser(s);
    }
}
