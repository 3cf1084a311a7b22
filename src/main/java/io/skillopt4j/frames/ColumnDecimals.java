package io.skillopt4j.frames;

import io.skillopt4j.internal.Decimals;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.columns.Column;

import java.util.List;

/**
 * Stateless. {@link Decimals}' rule applied to a Tablesaw column: every value of a fractional column prints with the
 * same number of decimals (the most any shown value needs), so a column of scores lines up.
 */
public final class ColumnDecimals {
    private ColumnDecimals() {}

    /** The most decimals any of {@code rows} needs; 0 for non-fractional columns. */
    public static int forColumn(Column<?> c, List<Integer> rows) {
        if (!fractional(c)) return 0;
        NumericColumn<?> n = (NumericColumn<?>) c;
        return rows.stream().filter(r -> !n.isMissing(r)).mapToInt(r -> Decimals.needed(n.getDouble(r)))
                .reduce(1, Math::max);
    }

    /** Fractional cells with {@code decimals}, missing as "". */
    public static String cell(Column<?> c, int row, int decimals) {
        if (c.isMissing(row)) return "";
        if (decimals > 0 && fractional(c)) return Decimals.halfUp(((NumericColumn<?>) c).getDouble(row), decimals);
        return c.getString(row);
    }

    private static boolean fractional(Column<?> c) {
        return c instanceof tech.tablesaw.api.DoubleColumn || c instanceof tech.tablesaw.api.FloatColumn;
    }
}
