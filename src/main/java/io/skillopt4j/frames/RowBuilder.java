package io.skillopt4j.frames;

import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** Not thread-safe; one per frame being built. Typed columns filled row by row; null values become missing. */
final class RowBuilder {
    private final Map<String, Column<?>> cols = new LinkedHashMap<>();

    RowBuilder ints(String... names) { for (String n : names) cols.put(n, IntColumn.create(n)); return this; }
    RowBuilder longs(String... names) { for (String n : names) cols.put(n, LongColumn.create(n)); return this; }
    RowBuilder doubles(String... names) { for (String n : names) cols.put(n, DoubleColumn.create(n)); return this; }
    RowBuilder strings(String... names) { for (String n : names) cols.put(n, StringColumn.create(n)); return this; }
    RowBuilder bools(String... names) { for (String n : names) cols.put(n, BooleanColumn.create(n)); return this; }

    /** Appends one row; keys not named by a column are an error (catches typos in builders). */
    void add(Map<String, ?> row) {
        for (String k : row.keySet()) {
            if (!cols.containsKey(k)) throw new IllegalStateException("row key without column: " + k);
        }
        for (Map.Entry<String, Column<?>> e : cols.entrySet()) append(e.getValue(), row.get(e.getKey()));
    }

    /** Appends one row given in column order (the names are spelled once, where the columns are declared). */
    void row(Object... values) {
        if (values.length != cols.size()) throw new IllegalStateException(values.length + " values for " + cols.size() + " columns " + cols.keySet());
        int i = 0;
        for (Column<?> c : cols.values()) append(c, values[i++]);
    }

    private static void append(Column<?> c, Object v) {
        if (v == null) c.appendMissing();
        else if (c instanceof BooleanColumn bc) bc.append(Boolean.parseBoolean(v.toString()));
        else if (c instanceof StringColumn sc) sc.append(v.toString());
        else appendNumber(c, num(v));
    }

    private static void appendNumber(Column<?> c, Double d) {
        if (d == null) c.appendMissing();
        else if (c instanceof IntColumn ic) ic.append(d.intValue());
        else if (c instanceof LongColumn lc) lc.append(d.longValue());
        else ((DoubleColumn) c).append(d);
    }

    static Double num(Object v) {
        if (v instanceof Number n) return n.doubleValue();
        if (v instanceof Boolean b) return b ? 1.0 : 0.0;
        if (v instanceof String s && !s.isBlank()) {
            try { return Double.parseDouble(s.trim()); } catch (NumberFormatException e) { return null; }
        }
        return null;
    }

    Frame build(String name, String footer) { return new Frame(name, new ArrayList<>(cols.values()), footer); }

    /** "ROWS x N columns", the counts every built frame's footer starts with. */
    String counts(String rows) { return rows + " x " + cols.size() + " columns"; }
}
