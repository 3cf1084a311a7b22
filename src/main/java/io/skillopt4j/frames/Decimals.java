package io.skillopt4j.frames;

import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.columns.Column;

import java.util.List;

/**
 * Stateless. The one rule for printing fractional numbers in frames, footers and headlines: at most
 * {@link #MAX} decimals, no binary noise ({@code 0.7300000000000002} prints {@code 0.73}), and never fewer
 * decimals than the value needs ({@code 0.975} stays {@code 0.975}, not {@code 0.98}). A column prints every
 * value with the same number of decimals, so a column of scores lines up.
 */
public final class Decimals {
    /** Most decimals ever shown. Four keeps 2/3 readable ({@code 0.6667}) and prices to a hundredth of a cent. */
    public static final int MAX = io.skillopt4j.internal.Decimals.MAX;

    private Decimals() {}

    /** Returns {@code v} with as many decimals as it needs (at least one, at most {@link #MAX}). */
    public static String of(double v) { return io.skillopt4j.internal.Decimals.shortest(v); }

    /** Returns {@code v} with exactly {@code decimals} decimals (half-up), or {@code NaN}/{@code ∞} as Java prints them. */
    public static String fixed(double v, int decimals) { return io.skillopt4j.internal.Decimals.halfUp(v, decimals); }

    /** Returns the decimals {@code v} needs once rounded to {@link #MAX}: 1 for 0.5 or 2.0, 3 for 0.975. */
    public static int needed(double v) { return io.skillopt4j.internal.Decimals.needed(v); }

    /** Returns the decimals a column's values need (the most any of {@code rows} needs); 0 for non-fractional columns. */
    public static int forColumn(Column<?> c, List<Integer> rows) {
        if (!fractional(c)) return 0;
        NumericColumn<?> n = (NumericColumn<?>) c;
        int d = 1;
        for (int r : rows) if (!n.isMissing(r)) d = Math.max(d, needed(n.getDouble(r)));
        return d;
    }

    /** Returns cell {@code row} of {@code c} as text: fractional columns with {@code decimals}, missing as "". */
    public static String cell(Column<?> c, int row, int decimals) {
        if (c.isMissing(row)) return "";
        if (decimals > 0 && fractional(c)) return fixed(((NumericColumn<?>) c).getDouble(row), decimals);
        return c.getString(row);
    }

    private static boolean fractional(Column<?> c) {
        return c instanceof tech.tablesaw.api.DoubleColumn || c instanceof tech.tablesaw.api.FloatColumn;
    }
}
