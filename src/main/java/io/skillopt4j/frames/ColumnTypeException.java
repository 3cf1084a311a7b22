package io.skillopt4j.frames;

import java.util.Locale;

/**
 * Immutable. A typed column accessor asked for a column of another type, e.g. {@code intColumn("action")} on
 * the steps frame's string column; the message names the column, its type and the accessor to use instead.
 */
public final class ColumnTypeException extends IllegalArgumentException {
    private final String actual;

    ColumnTypeException(String frame, String column, String actual, String requested) {
        super("column '" + column + "' in " + frame + " is a " + actual + " column, not " + requested
                + "; use " + actual + "Column(\"" + column + "\")");
        this.actual = actual;
    }

    /** Returns the column's type, e.g. {@code string}. */
    public String actualType() { return actual; }

    /** Returns the type in the accessor's spelling: Tablesaw's {@code INTEGER} → {@code int}, {@code STRING} → {@code string}. */
    static String typeName(tech.tablesaw.columns.Column<?> c) {
        return switch (c.type().name()) {
            case "INTEGER" -> "int";
            case "LOCAL_DATE" -> "date";
            case "LOCAL_TIME" -> "time";
            case "LOCAL_DATE_TIME" -> "dateTime";
            default -> c.type().name().toLowerCase(Locale.ROOT);
        };
    }
}
