package io.skillopt4j.env.spreadsheet;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Stateless. The official SpreadsheetBench cell comparison, applied to the typed cells the sidecar dumps. */
public final class CellCompare {
    private CellCompare() {}

    /** Immutable. One dumped cell: sheet, A1 reference, openpyxl type tag and value. */
    public record Cell(String sheet, String ref, String type, Object value) {}

    /** Immutable. A comparable value: "float" with a double, "str" with a string, or "empty". */
    public record Value(String type, Object value) {
        public static final Value EMPTY = new Value("empty", null);

        @Override public String toString() { return value == null ? "None" : type.equals("str") ? "'" + value + "'" : String.valueOf(value); }
    }

    /** Immutable. A parsed range: sheet (null = the gold workbook's first sheet) and A1:B9 range text. */
    public record Range(String sheet, String range) {}

    /** Python's round(x, n): correct rounding of the binary value. */
    static double pyRound(double d, int digits) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return d;
        return new java.math.BigDecimal(d).setScale(digits, java.math.RoundingMode.HALF_EVEN).doubleValue();
    }

    public static Value transform(Cell c) {
        return switch (c.type()) {
            case "none" -> Value.EMPTY;
            case "bool" -> new Value("float", Boolean.TRUE.equals(c.value()) ? 1.0 : 0.0);
            case "int", "float" -> new Value("float", pyRound(((Number) c.value()).doubleValue(), 2));
            case "datetime" -> new Value("float", pyRound(((Number) c.value()).doubleValue(), 0));
            case "time" -> {
                String s = String.valueOf(c.value());
                yield new Value("str", s.length() >= 3 ? s.substring(0, s.length() - 3) : "");
            }
            default -> {
                String s = String.valueOf(c.value());
                if (s.isEmpty()) yield Value.EMPTY;
                Double d = numeric(s);
                yield d != null ? new Value("float", pyRound(d, 2)) : new Value("str", s);
            }
        };
    }

    /** Python float(s) acceptance for plain numeric strings (surrounding whitespace allowed, no thousands separators). */
    static Double numeric(String s) {
        String t = s.strip().replace("_", "");
        if (!t.matches("[+-]?(\\d+\\.?\\d*([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|inf|infinity|nan)") || t.isEmpty()) return null;
        try {
            return Double.parseDouble(t.toLowerCase(java.util.Locale.ROOT).replace("infinity", "Infinity").replace("inf", "Infinity").replace("nan", "NaN"));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static boolean equal(Value gold, Value pred) {
        boolean ge = gold.type().equals("empty");
        boolean pe = pred.type().equals("empty");
        if (ge || pe) return ge && pe;
        return gold.type().equals(pred.type()) && Objects.equals(gold.value(), pred.value());
    }

    /** Parses "Sheet1!A1:B3,'My Sheet'!C2,D4:D9" into ranges; a sheet prefix applies to its own part only. */
    public static List<Range> parseRanges(String answerPosition, String answerSheet) {
        List<Range> out = new ArrayList<>();
        for (String part : splitTopLevel(answerPosition)) {
            String p = part.trim();
            if (p.isEmpty()) continue;
            int bang = p.lastIndexOf('!');
            String sheet = null;
            String rng = p;
            if (bang >= 0) {
                sheet = p.substring(0, bang).trim();
                if (sheet.length() >= 2 && sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.substring(1, sheet.length() - 1).replace("''", "'");
                rng = p.substring(bang + 1).trim();
            } else if (answerSheet != null && !answerSheet.isBlank()) {
                sheet = answerSheet.trim();
            }
            out.add(new Range(sheet, rng.replace("$", "")));
        }
        return out;
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : s.toCharArray()) {
            if (c == '\'') quoted = !quoted;
            if (c == ',' && !quoted) { parts.add(cur.toString()); cur.setLength(0); } else cur.append(c);
        }
        parts.add(cur.toString());
        return parts;
    }
}
