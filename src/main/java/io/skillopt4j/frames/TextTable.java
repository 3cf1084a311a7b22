package io.skillopt4j.frames;

import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Stateless. A table as aligned text for JShell and terminals: rows, cells and lines capped (columns that do not
 * fit are named on a closing line), cuts marked "…".
 */
public final class TextTable {
    public static final int MAX_ROWS = 20;
    public static final int MAX_WIDTH = 32;
    /** Fits a terminal or notebook cell without wrapping. */
    public static final int LINE_WIDTH = 120;
    private static final String GAP = "  ";

    private TextTable() {}

    /** The table and a newline (no footer), lines at most {@code lineWidth} characters (at least the first column). */
    public static String render(Table t, int maxRows, int maxWidth, int lineWidth) {
        int cols = t.columnCount();
        int rows = t.rowCount();
        boolean cut = rows > maxRows;
        int head = cut ? (maxRows + 1) / 2 : rows;
        int tail = cut ? rows - maxRows / 2 : rows;
        List<Integer> shown = IntStream.concat(IntStream.range(0, head), IntStream.range(tail, rows)).boxed().toList();
        List<String[]> columns = new ArrayList<>();
        int used = 0;
        int c = 0;
        for (; c < cols; c++) {
            String[] cells = column(t, c, shown, maxWidth, lineWidth);
            int w = width(cells);
            int need = (c == 0 ? 0 : GAP.length()) + w;
            if (c > 0 && used + need > lineWidth) break;
            columns.add(cells);
            used += need;
        }
        StringBuilder sb = new StringBuilder();
        int[] width = columns.stream().mapToInt(TextTable::width).toArray();
        String[] ellipsis = Collections.nCopies(columns.size(), "…").toArray(String[]::new);
        for (int i = 0; i <= shown.size(); i++) {
            if (cut && i == head + 1) line(sb, ellipsis, width);
            String[] row = new String[columns.size()];
            for (int k = 0; k < row.length; k++) row[k] = columns.get(k)[i];
            line(sb, row, width);
            if (i == 0) line(sb, Arrays.stream(width).mapToObj("-"::repeat).toArray(String[]::new), width);
        }
        if (c < cols) sb.append(moreColumns(t, c, lineWidth)).append('\n');
        return sb.toString();
    }

    /** Header and cells cut at {@code maxWidth}, unless that makes different values look alike: then up to the line. */
    private static String[] column(Table t, int c, List<Integer> shown, int maxWidth, int lineWidth) {
        var col = t.column(c);
        int decimals = ColumnDecimals.forColumn(col, shown);
        String[] full = new String[shown.size() + 1];
        full[0] = clean(col.name());
        for (int i = 0; i < shown.size(); i++) full[i + 1] = clean(ColumnDecimals.cell(col, shown.get(i), decimals));
        List<String> values = Arrays.asList(full).subList(1, full.length);
        long distinct = values.stream().distinct().count();
        int width = values.stream().map(v -> cell(v, maxWidth)).distinct().count() < distinct
                ? Math.max(maxWidth, lineWidth / 2) : maxWidth;
        return Arrays.stream(full).map(v -> cell(v, width)).toArray(String[]::new);
    }

    private static String moreColumns(Table t, int from, int lineWidth) {
        int n = t.columnCount() - from;
        StringBuilder sb = new StringBuilder("… ").append(n).append(n == 1 ? " more column: " : " more columns: ");
        for (int c = from; c < t.columnCount(); c++) {
            String name = t.column(c).name() + (c + 1 < t.columnCount() ? ", " : "");
            if (sb.length() + name.length() > lineWidth - 2) return sb.append("…").toString();
            sb.append(name);
        }
        return sb.toString();
    }

    private static int width(String[] cells) {
        return Arrays.stream(cells).mapToInt(s -> s.codePointCount(0, s.length())).max().orElse(0);
    }

    private static void line(StringBuilder sb, String[] row, int[] width) {
        for (int c = 0; c < row.length; c++) {
            if (c > 0) sb.append(GAP);
            sb.append(row[c]).append(" ".repeat(width[c] - row[c].codePointCount(0, row[c].length())));
        }
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') end--;
        sb.setLength(end);
        sb.append('\n');
    }

    private static String clean(String s) {
        return s == null ? "" : s.replace("\r", "").replace('\n', ' ').replace('\t', ' ');
    }

    static String cell(String s, int maxWidth) {
        String v = clean(s);
        if (v.codePointCount(0, v.length()) <= maxWidth) return v;
        return v.substring(0, v.offsetByCodePoints(0, Math.max(1, maxWidth - 1))) + "…";
    }
}
