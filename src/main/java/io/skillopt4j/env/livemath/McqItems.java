package io.skillopt4j.env.livemath;

import io.skillopt4j.env.Item;
import io.skillopt4j.env.PyRandom;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.internal.Json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/** Stateless. LiveMathematicianBench row normalisation, label handling, answer mapping and per-batch choice shuffles. */
public final class McqItems {
    static final String LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private McqItems() {}

    public record Choice(String label, String text) {
        Map<String, Object> toMap() { return Json.obj("label", label, "text", text); }
    }

    /** trim → upper-case → strip trailing '.', ')', ':'. */
    public static String normLabel(String s) {
        String t = s == null ? "" : s.trim().toUpperCase(Locale.ROOT);
        while (!t.isEmpty() && ".):".indexOf(t.charAt(t.length() - 1)) >= 0) t = t.substring(0, t.length() - 1).trim();
        return t;
    }

    /** Normalises a raw row (nested {@code mcq} or top level) into the item upstream builds; bad rows name the field. */
    @SuppressWarnings("unchecked")
    public static Item item(Map<String, Object> row, RowRef ref) {
        Map<String, Object> src = row.get("mcq") instanceof Map<?, ?> m ? (Map<String, Object>) m : row;
        Object q = src.containsKey("question") ? src.get("question") : row.get("question");
        if (q == null || String.valueOf(q).isBlank()) throw ref.missing("question", "the question text");
        Object rawChoices = src.containsKey("choices") ? src.get("choices") : row.get("choices");
        if (rawChoices == null) throw ref.missing("choices", "a list of options or a label→text map");
        List<Choice> choices = new ArrayList<>();
        if (rawChoices instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                Object c = l.get(i);
                String label = i < LABELS.length() ? String.valueOf(LABELS.charAt(i)) : String.valueOf(i);
                if (c instanceof Map<?, ?> cm && cm.get("label") != null) label = normLabel(String.valueOf(cm.get("label")));
                Object t = c instanceof Map<?, ?> cm ? (cm.get("text") != null ? cm.get("text") : cm.get("content")) : c;
                String text = t == null ? "" : String.valueOf(t);
                if (!text.isBlank()) choices.add(new Choice(label, text));
            }
        } else if (rawChoices instanceof Map<?, ?> cm) {
            cm.entrySet().stream().sorted(Comparator.comparing(e -> String.valueOf(e.getKey())))
                    .forEach(e -> { if (e.getValue() != null && !String.valueOf(e.getValue()).isBlank()) choices.add(new Choice(normLabel(String.valueOf(e.getKey())), String.valueOf(e.getValue()))); });
        } else {
            throw ref.bad("choices", "a list of options or a label→text map", rawChoices);
        }
        if (choices.isEmpty()) throw ref.bad("choices", "at least one non-empty option", rawChoices);
        Object rc = src.containsKey("correct_choice") ? src.get("correct_choice") : row.getOrDefault("correct_choice", row.get("answer"));
        Object rl = rc instanceof Map<?, ?> cm ? (cm.get("label") == null ? "" : cm.get("label")) : rc == null ? "" : rc;
        String correctLabel = normLabel(String.valueOf(rl));
        String correctText = rc instanceof Map<?, ?> cm && cm.get("text") != null ? String.valueOf(cm.get("text")) : "";
        if (correctLabel.isEmpty()) throw ref.missing("correct_choice", "a label such as \"B\" or {label, text}");
        Choice correct = choices.stream().filter(c -> c.label().equals(correctLabel)).findFirst().orElse(null);
        if (correct == null) {
            correct = new Choice(correctLabel, correctText);
            choices.add(correct);
            choices.sort(Comparator.comparing(Choice::label));
        }
        String month = String.valueOf(row.getOrDefault("month", ""));
        Object no = row.get("no") != null ? row.get("no") : ref.index() + 1;
        String id = row.get("id") != null ? String.valueOf(row.get("id")) : month + ":" + RowRef.text(no);
        Object tt = row.get("theorem_type");
        List<String> types = (tt instanceof List<?> tl ? tl.stream() : java.util.stream.Stream.of(tt))
                .filter(o -> o != null && !String.valueOf(o).isBlank()).map(String::valueOf).toList();
        return new Item(id, Json.obj("month", month, "no", no, "paper_link", String.valueOf(row.getOrDefault("paper_link", "")),
                "theorem", String.valueOf(row.getOrDefault("theorem", "")), "sketch", String.valueOf(row.getOrDefault("sketch", "")),
                "theorem_type", types, "question", String.valueOf(q), "choices", choices.stream().map(Choice::toMap).toList(),
                "correct_choice", correct.toMap(), "task_type", types.isEmpty() ? "math_mcq" : types.get(0),
                "source_path", String.valueOf(row.getOrDefault("source_path", ref.file().toString()))));
    }

    public static List<Choice> choices(Item item) {
        return item.<Map<String, Object>>list("choices").stream()
                .map(m -> new Choice(String.valueOf(m.get("label")), String.valueOf(m.get("text")))).toList();
    }

    @SuppressWarnings("unchecked")
    public static String correctLabel(Item item) {
        return String.valueOf(((Map<String, Object>) item.fields().get("correct_choice")).get("label"));
    }

    /** The shuffle seed: int of the first 16 hex digits of SHA-256("<batch seed>:<item id>"). */
    public static BigInteger shuffleSeed(long batchSeed, String id) {
        return new BigInteger(io.skillopt4j.internal.Hashes.sha256Hex(batchSeed + ":" + id).substring(0, 16), 16);
    }

    /** Shuffles the choices with PyRandom(shuffleSeed), relabels A, B, C… and remaps the correct choice. */
    public static Item shuffled(Item item, long batchSeed) {
        List<Choice> cs = new PyRandom(shuffleSeed(batchSeed, item.id())).shuffled(choices(item));
        String oldCorrect = correctLabel(item);
        List<Choice> relabelled = IntStream.range(0, cs.size()).mapToObj(i -> new Choice(String.valueOf(LABELS.charAt(i)), cs.get(i).text())).toList();
        Choice correct = IntStream.range(0, cs.size()).filter(i -> cs.get(i).label().equals(oldCorrect)).mapToObj(relabelled::get)
                .reduce((a, b) -> b).orElse(null); // the last one carrying the old correct label
        Map<String, Object> f = new LinkedHashMap<>(item.fields());
        f.put("choices", relabelled.stream().map(Choice::toMap).toList());
        if (correct != null) f.put("correct_choice", correct.toMap());
        return new Item(item.id(), f);
    }

    /** Maps a raw answer to a label: a valid label, else a choice's exact text (case-insensitive), else the first token. */
    public static String predictedLabel(String answer, List<Choice> choices) {
        String label = normLabel(answer);
        if (choices.stream().anyMatch(c -> c.label().equals(label))) return label;
        for (Choice c : choices) if (c.text().trim().equalsIgnoreCase(answer.trim())) return c.label();
        String[] toks = answer.trim().split("\\s+");
        String first = toks.length == 0 ? "" : normLabel(toks[0]);
        if (choices.stream().anyMatch(c -> c.label().equals(first))) return first;
        return label;
    }
}
