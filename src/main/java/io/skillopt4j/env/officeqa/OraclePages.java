package io.skillopt4j.env.officeqa;

import io.skillopt4j.internal.Json;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stateless. OfficeQA's "oracle parsed pages": each source URL's page from {@code jsons/<file stem>.json}, capped. */
final class OraclePages {
    static final int PAGE_CAP = 24_000;
    static final int TOTAL_CAP = 80_000;
    private static final Pattern PAGE = Pattern.compile("(?:^|&)(?:page|pagenum|page_id)=(\\d+)");
    private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<t[hd][^>]*>(.*?)</t[hd]>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private OraclePages() {}

    static int pageOf(String url) {
        try {
            String q = URI.create(url.trim()).getRawQuery();
            if (q == null) return -1;
            Matcher m = PAGE.matcher(q);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /** The rendered block with its lead sentence, or "" when no page could be found. */
    static String render(List<String> sourceDocs, List<String> sourceFiles, List<Path> roots) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sourceDocs.size(); i++) {
            int page = pageOf(sourceDocs.get(i));
            if (page < 0) continue;
            String file = i < sourceFiles.size() ? sourceFiles.get(i) : sourceFiles.size() == 1 ? sourceFiles.get(0) : null;
            if (file == null) continue;
            Path json = findJson(file, roots);
            if (json == null) continue;
            String text = pageText(json, page);
            if (text.isBlank()) continue;
            if (text.length() > PAGE_CAP) text = text.substring(0, PAGE_CAP);
            String block = "### " + file + " page " + page + "\nSource URL: " + sourceDocs.get(i).trim() + "\n\n" + text + "\n\n";
            if (out.length() + block.length() > TOTAL_CAP) break;
            out.append(block);
        }
        if (out.length() == 0) return "";
        return "The following pages were pre-parsed from the source documents (oracle content); treat them as primary evidence.\n\n"
                + out.toString().stripTrailing();
    }

    static Path findJson(String file, List<Path> roots) {
        String stem = file.contains(".") ? file.substring(0, file.lastIndexOf('.')) : file;
        for (Path root : roots) {
            for (Path base : new Path[] {root, root.getParent(), root.resolve("treasury_bulletins_parsed")}) {
                if (base == null) continue;
                Path p = base.resolve("jsons").resolve(stem + ".json");
                if (Files.isRegularFile(p)) return p;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static String pageText(Path json, int page) {
        Object doc;
        try {
            doc = Json.read(json);
        } catch (RuntimeException e) {
            return "";
        }
        if (!(doc instanceof Map<?, ?> m) || !(m.get("document") instanceof Map<?, ?> d) || !(d.get("elements") instanceof List<?> els)) return "";
        List<String> parts = els.stream().filter(o -> o instanceof Map<?, ?> el && el.get("bbox") instanceof List<?> boxes
                        && boxes.stream().anyMatch(b -> b instanceof Map<?, ?> bm && bm.get("page_id") instanceof Number n && n.intValue() == page)
                        && el.get("content") != null).map(o -> String.valueOf(((Map<?, ?>) o).get("content")))
                .map(c -> c.toLowerCase(java.util.Locale.ROOT).contains("<table") ? tableToMarkdown(c) : unescape(c)).toList();
        return String.join("\n\n", parts).replaceAll("\n{3,}", "\n\n").trim();
    }

    /** An HTML table as a Markdown pipe table (no rows: the text unescaped). */
    static String tableToMarkdown(String html) {
        List<List<String>> rows = ROW.matcher(html).results().map(r -> CELL.matcher(r.group(1)).results()
                .map(c -> unescape(c.group(1)).replace("|", "\\|").replaceAll("\\s+", " ").trim()).toList()).filter(c -> !c.isEmpty()).toList();
        if (rows.isEmpty()) return unescape(html);
        int width = rows.stream().mapToInt(List::size).max().orElse(1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            List<String> row = rows.get(i);
            sb.append("| ").append(String.join(" | ", row)).append(" | ".repeat(width - row.size())).append(" |\n");
            if (i == 0) sb.append("|").append(" --- |".repeat(width)).append('\n');
        }
        return sb.toString().trim();
    }

    /** The text of an HTML fragment: tags stripped, line breaks kept, entities unescaped. */
    static String unescape(String html) {
        String t = html.replaceAll("(?i)<br\\s*/?>", "\n").replaceAll("<[^>]+>", "");
        return t.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&amp;", "&").trim();
    }
}
