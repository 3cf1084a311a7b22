package io.skillopt4j.frames;

import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.List;

/** Stateless. Renders a table as aligned text with capped rows (first and last) and cells, cuts marked "…". */
public final class TextTable {
    /** Default row cap of {@link Frame#toString()}. */
    public static final int MAX_ROWS = 20;
    /** Default cell width cap. */
    public static final int MAX_WIDTH = 32;

    private TextTable() {}

    /** Returns the rendered table followed by a newline (no footer). */
    public static String render(Table t, int maxRows, int maxWidth) {
        int cols = t.columnCount();
        int rows = t.rowCount();
        List<Integer> shown = new ArrayList<>();
        boolean cut = rows > maxRows;
        int head = cut ? (maxRows + 1) / 2 : rows;
        for (int r = 0; r < head; r++) shown.add(r);
        if (cut) for (int r = rows - maxRows / 2; r < rows; r++) shown.add(r);
        String[][] cells = new String[shown.size() + 1][cols];
        int[] width = new int[cols];
        for (int c = 0; c < cols; c++) {
            cells[0][c] = cell(t.column(c).name(), maxWidth);
            for (int i = 0; i < shown.size(); i++) cells[i + 1][c] = cell(t.column(c).getString(shown.get(i)), maxWidth);
            for (String[] row : cells) width[c] = Math.max(width[c], row[c].length());
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (cut && i == head + 1) line(sb, ellipsisRow(cols), width);
            line(sb, cells[i], width);
            if (i == 0) {
                String[] rule = new String[cols];
                for (int c = 0; c < cols; c++) rule[c] = "-".repeat(width[c]);
                line(sb, rule, width);
            }
        }
        return sb.toString();
    }

    private static String[] ellipsisRow(int cols) {
        String[] r = new String[cols];
        java.util.Arrays.fill(r, "…");
        return r;
    }

    private static void line(StringBuilder sb, String[] row, int[] width) {
        for (int c = 0; c < row.length; c++) {
            if (c > 0) sb.append("  ");
            sb.append(row[c]).append(" ".repeat(width[c] - row[c].length()));
        }
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') end--;
        sb.setLength(end);
        sb.append('\n');
    }

    static String cell(String s, int maxWidth) {
        String v = s == null ? "" : s.replace("\r", "").replace('\n', ' ').replace('\t', ' ');
        if (v.codePointCount(0, v.length()) <= maxWidth) return v;
        return v.substring(0, v.offsetByCodePoints(0, Math.max(1, maxWidth - 1))) + "…";
    }
}
