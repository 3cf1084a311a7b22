package io.skillopt4j.frames;

import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.selection.Selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not thread-safe while being mutated (like any Tablesaw {@link Table}); {@link RunFrames} hands out copies.
 * A table for cell users: column lookup forgives case and snake/camel spelling (a miss lists the columns), typed
 * accessors name the column and its type on a mismatch ({@link ColumnTypeException}), {@code toString()} is a
 * bounded text table with a footer, and derived tables ({@code where}, {@code sortOn} …) stay frames that keep
 * the footer's headline: {@code 3 steps x 34 columns · of 8 steps · best val 1.0 at step 8}.
 */
public final class Frame extends Table {
    private static final Pattern COUNTS = Pattern.compile("^(\\d+) (\\S+)((?: \\+ \\S+)*) x (\\d+) columns");
    /** The footer as built (counts of the whole frame), kept by derived frames. */
    private final String footer;

    Frame(String name, List<Column<?>> columns, String footer) {
        super(name, columns);
        this.footer = footer;
    }

    /** Wraps any table (e.g. the result of {@code summarize(...).by(...)}) as a forgiving frame. */
    public static Frame of(Table table) {
        if (table instanceof Frame f) return f;
        return new Frame(table.name(), new ArrayList<>(table.columns()), null);
    }

    /** The form names are matched in: lower case without underscores, dashes, spaces or dots. */
    static String norm(String name) {
        return name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "").replace(" ", "").replace(".", "");
    }

    /** Returns the actual column name that {@code name} refers to; a miss lists the columns. */
    public String resolve(String name) {
        for (String n : columnNames()) if (n.equals(name)) return n;
        for (String n : columnNames()) if (n.equalsIgnoreCase(name.trim())) return n;
        String want = norm(name);
        for (String n : columnNames()) if (norm(n).equals(want)) return n;
        throw new IllegalArgumentException("no column '" + name + "' in " + name() + "; columns: " + String.join(", ", columnNames()));
    }

    @Override public Column<?> column(String columnName) { return super.column(resolve(columnName)); }

    @Override public int columnIndex(String columnName) { return super.columnIndex(resolve(columnName)); }

    @Override public boolean containsColumn(String columnName) {
        String want = norm(columnName);
        return columnNames().stream().anyMatch(n -> norm(n).equals(want));
    }

    // Typed accessors: Tablesaw casts and throws ClassCastException; a cell user needs the column and its type.
    @Override public IntColumn intColumn(String name) { return typed(name, IntColumn.class, "int"); }
    @Override public LongColumn longColumn(String name) { return typed(name, LongColumn.class, "long"); }
    @Override public DoubleColumn doubleColumn(String name) { return typed(name, DoubleColumn.class, "double"); }
    @Override public StringColumn stringColumn(String name) { return typed(name, StringColumn.class, "string"); }
    @Override public BooleanColumn booleanColumn(String name) { return typed(name, BooleanColumn.class, "boolean"); }
    @Override public NumericColumn<?> numberColumn(String name) { return typed(name, NumericColumn.class, "number"); }
    @Override public IntColumn intColumn(int i) { return typed(column(i).name(), IntColumn.class, "int"); }
    @Override public LongColumn longColumn(int i) { return typed(column(i).name(), LongColumn.class, "long"); }
    @Override public DoubleColumn doubleColumn(int i) { return typed(column(i).name(), DoubleColumn.class, "double"); }
    @Override public StringColumn stringColumn(int i) { return typed(column(i).name(), StringColumn.class, "string"); }
    @Override public BooleanColumn booleanColumn(int i) { return typed(column(i).name(), BooleanColumn.class, "boolean"); }
    @Override public NumericColumn<?> numberColumn(int i) { return typed(column(i).name(), NumericColumn.class, "number"); }

    private <C> C typed(String name, Class<C> type, String want) {
        Column<?> c = column(name);
        if (!type.isInstance(c)) throw new ColumnTypeException(name(), c.name(), ColumnTypeException.typeName(c), want);
        return type.cast(c);
    }

    // Derived tables stay frames: forgiving lookup, typed errors, bounded text and the headline of the footer.
    /** A deep copy that keeps the footer (frames handed to callers are copies, so cells stay re-runnable). */
    @Override public Frame copy() {
        return new Frame(name(), new ArrayList<>(columns().stream().<Column<?>>map(Column::copy).toList()), footer);
    }
    @Override public Frame emptyCopy() { return derive(super.emptyCopy()); }
    @Override public Frame emptyCopy(int rows) { return derive(super.emptyCopy(rows)); }
    @Override public Frame where(Selection s) { return derive(super.where(s)); }
    @Override public Frame where(Function<Table, Selection> s) { return derive(super.where(s)); }
    @Override public Frame dropWhere(Selection s) { return derive(super.dropWhere(s)); }
    @Override public Frame dropWhere(Function<Table, Selection> s) { return derive(super.dropWhere(s)); }
    @Override public Frame selectColumns(String... names) { return derive(super.selectColumns(resolveAll(names))); }
    @Override public Frame selectColumns(int... indexes) { return derive(super.selectColumns(indexes)); }
    @Override public Frame selectColumns(Column<?>... cols) { return derive(super.selectColumns(cols)); }
    @Override public Frame rejectColumns(String... names) { return derive(super.rejectColumns(resolveAll(names))); }
    @Override public Frame rejectColumns(int... indexes) { return derive(super.rejectColumns(indexes)); }
    @Override public Frame sortOn(String... names) { return derive(super.sortOn(names)); }
    @Override public Frame sortAscendingOn(String... names) { return derive(super.sortAscendingOn(resolveAll(names))); }
    @Override public Frame sortDescendingOn(String... names) { return derive(super.sortDescendingOn(resolveAll(names))); }
    @Override public Frame first(int n) { return derive(super.first(n)); }
    @Override public Frame last(int n) { return derive(super.last(n)); }
    @Override public Frame rows(int... rows) { return derive(super.rows(rows)); }
    @Override public Frame dropRows(int... rows) { return derive(super.dropRows(rows)); }
    @Override public Frame inRange(int rowCount) { return derive(super.inRange(rowCount)); }
    @Override public Frame inRange(int from, int to) { return derive(super.inRange(from, to)); }
    @Override public Frame sampleN(int n) { return derive(super.sampleN(n)); }
    @Override public Frame dropDuplicateRows() { return derive(super.dropDuplicateRows()); }
    @Override public Frame dropRowsWithMissingValues() { return derive(super.dropRowsWithMissingValues()); }
    /** Counts are a new kind of table, so the result gets a plain rows x columns footer. */
    @Override public Frame countBy(String... names) { return Frame.of(super.countBy(resolveAll(names))); }

    private String[] resolveAll(String... names) {
        return Arrays.stream(names).map(this::resolve).toArray(String[]::new);
    }

    private Frame derive(Table t) { return new Frame(t.name(), new ArrayList<>(t.columns()), footer); }

    /** E.g. {@code 8 steps x 34 columns · best val 1.0 at step 8}; a derived frame adds {@code · of 8 steps}. */
    public String footer() {
        if (footer == null) return rowCount() + " rows x " + columnCount() + " columns";
        Matcher m = COUNTS.matcher(footer);
        if (!m.find()) return footer;
        // "8 steps + final_promotion x 34 columns": eight step rows plus one row per "+" part.
        String extra = m.group(3);
        int rows = Integer.parseInt(m.group(1)) + (extra.isEmpty() ? 0 : extra.split(" \\+ ").length - 1);
        String rest = footer.substring(m.end());
        if (rows == rowCount()) return m.group(1) + " " + m.group(2) + extra + " x " + columnCount() + " columns" + rest;
        String unit = extra.isEmpty() ? m.group(2) : "rows";
        return rowCount() + " " + unit + " x " + columnCount() + " columns · of " + m.group(1) + " " + m.group(2) + extra + rest;
    }

    /** At most {@code maxRows} rows (first and last halves), cells cut at {@code maxWidth}, ≤ 120 wide. */
    public String print(int maxRows, int maxWidth) { return print(maxRows, maxWidth, TextTable.LINE_WIDTH); }

    /** Lines at most {@code lineWidth} characters (columns beyond are listed). */
    public String print(int maxRows, int maxWidth, int lineWidth) {
        return "\n" + TextTable.render(this, maxRows, maxWidth, lineWidth) + footer();
    }

    /** Key/value frames (summary) are short and read best whole, so they get a larger row cap. */
    @Override public String toString() {
        int rows = columnCount() == 2 && columnNames().equals(List.of("key", "value")) ? 2 * TextTable.MAX_ROWS : TextTable.MAX_ROWS;
        return print(rows, TextTable.MAX_WIDTH);
    }
}
