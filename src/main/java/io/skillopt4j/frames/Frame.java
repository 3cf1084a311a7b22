package io.skillopt4j.frames;

import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Not thread-safe while being mutated (like any Tablesaw {@link Table}); the frames {@link RunFrames} hands
 * out are fresh copies. A Tablesaw table whose column lookup forgives case and snake/camel spelling
 * ({@code edit_budget}, {@code editBudget} and {@code EDIT_BUDGET} all find the same column; a miss lists the
 * columns) and whose {@code toString()} is a bounded text table with a footer, for JShell's {@code ==>}.
 * <pre>{@code
 * Frame steps = run.steps();
 * steps.intColumn("editBudget");                 // same as "edit_budget"
 * steps.where(steps.booleanColumn("accepted").isTrue());
 * }</pre>
 */
public final class Frame extends Table {
    private final String footer;

    Frame(String name, List<Column<?>> columns, String footer) {
        super(name, columns);
        this.footer = footer;
    }

    /** Wraps any table (e.g. the result of {@code where} or {@code summarize}) as a forgiving frame. */
    public static Frame of(Table table) {
        if (table instanceof Frame f) return f;
        return new Frame(table.name(), new ArrayList<>(table.columns()), null);
    }

    /** Returns a deep copy that keeps the footer (frames handed to callers are copies, so cells stay re-runnable). */
    public Frame copyFrame() {
        List<Column<?>> cols = new ArrayList<>();
        for (Column<?> c : columns()) cols.add(c.copy());
        return new Frame(name(), cols, footer);
    }

    /** Returns the normalised form used for matching: lower case without underscores, dashes or spaces. */
    static String norm(String name) {
        return name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "").replace(" ", "").replace(".", "");
    }

    /** Returns the actual column name that {@code name} refers to. */
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
        for (String n : columnNames()) if (norm(n).equals(want)) return true;
        return false;
    }

    /** Returns the footer line, e.g. {@code 8 steps x 34 columns · best val 1.00 at step 8}. */
    public String footer() {
        return footer != null ? footer : rowCount() + " rows x " + columnCount() + " columns";
    }

    /** Returns at most {@code maxRows} rows (first and last halves) with cells cut at {@code maxWidth}. */
    public String print(int maxRows, int maxWidth) {
        return "\n" + TextTable.render(this, maxRows, maxWidth) + footer();
    }

    /** Key/value frames (summary) are short and read best whole, so they get a larger row cap. */
    @Override public String toString() {
        int rows = columnCount() == 2 && columnNames().equals(java.util.List.of("key", "value")) ? 2 * TextTable.MAX_ROWS : TextTable.MAX_ROWS;
        return print(rows, TextTable.MAX_WIDTH);
    }
}
