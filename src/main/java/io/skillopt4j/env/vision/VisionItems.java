package io.skillopt4j.env.vision;

import io.skillopt4j.env.Images;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Stateless. Row mappers normalising each image QA release to the fields {@link #build} adds (others kept). */
final class VisionItems {
    private VisionItems() {}

    static List<String> images(Map<String, Object> row, RowRef ref, String dataRoot, String... keys) {
        Object v = ref.requireFirst(row, "an image path (or a list of them)", keys);
        List<String> raw = v instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(v));
        if (raw.isEmpty()) throw ref.bad(keys[0], "at least one image path", v);
        List<String> out = new ArrayList<>();
        for (String r : raw) {
            Path p = Images.resolve(r, dataRoot);
            if (!Files.isRegularFile(p)) throw ref.bad(keys[0], "existing image files (resolved under data_root)", p.toString());
            out.add(p.toString());
        }
        return out;
    }

    static List<String> options(Object v) {
        if (v instanceof List<?> l) return l.stream().map(String::valueOf).toList();
        if (v instanceof Map<?, ?> m) {
            return m.entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> String.valueOf(a).compareTo(String.valueOf(b))))
                    .map(e -> String.valueOf(e.getValue())).toList();
        }
        return List.of();
    }

    /** The raw row with what every vision item adds, in this order. */
    static Item build(String id, Map<String, Object> row, String question, List<String> images, String answer, String kind,
                      List<String> options, String taskType) {
        return new Item(id, Json.put(new LinkedHashMap<>(row), "question", question, "images", images, "answer", answer,
                "kind", kind, "options", options, "task_type", taskType));
    }

    /** MathVerse: sample_index, problem_version, question (or query_wo), image, answer, question_type multi-choice|free-form. */
    static Item mathverse(Map<String, Object> row, RowRef ref, String dataRoot) {
        String id = RowRef.text(ref.requireFirst(row, "an item id", "sample_index", "id"));
        Object q = RowRef.first(row, "question", "query_wo", "query_cot");
        List<String> imgs = images(row, ref, dataRoot, "image", "image_path");
        Object ans = row.get("answer");
        if (ans == null) throw ref.missing("answer", "the gold answer");
        String qt = String.valueOf(row.getOrDefault("question_type", "free-form")).toLowerCase(Locale.ROOT);
        String kind = qt.contains("choice") ? "choice" : "free";
        return build(id, row, q == null ? "" : String.valueOf(q), imgs, String.valueOf(ans), kind, options(row.get("options")),
                RowRef.firstOr("mathverse", row, "problem_version", "task_type"));
    }

    /** MMRB: id, question, images[] (or image_paths), options[], answer, question_type, subtask/task. */
    static Item mmrb(Map<String, Object> row, RowRef ref, String dataRoot) {
        String id = RowRef.text(ref.requireFirst(row, "an item id", "id", "index", "sample_id"));
        String q = ref.requireString(row, "question");
        List<String> imgs = images(row, ref, dataRoot, "images", "image_paths", "image");
        Object ans = ref.requireFirst(row, "the gold answer", "answer", "gt_answer");
        List<String> opts = options(RowRef.first(row, "options", "choices"));
        String qt = String.valueOf(row.getOrDefault("question_type", opts.isEmpty() ? "free-form" : "multiple-choice")).toLowerCase(Locale.ROOT);
        return build(id, row, q, imgs, String.valueOf(ans), qt.contains("choice") ? "choice" : "free", opts,
                RowRef.firstOr("mmrb", row, "subtask", "task", "task_type", "category"));
    }

    /** BabyVision: taskId, question, image, ansType choice|blank, choiceAns (0-based index or letter), blankAns, options, type, subtype. */
    static Item babyvision(Map<String, Object> row, RowRef ref, String dataRoot) {
        String id = RowRef.text(ref.requireFirst(row, "an item id", "taskId", "id"));
        String q = ref.requireString(row, "question");
        List<String> imgs = images(row, ref, dataRoot, "image", "image_path", "images");
        String ansType = String.valueOf(row.getOrDefault("ansType", "blank")).toLowerCase(Locale.ROOT);
        List<String> opts = options(RowRef.first(row, "options", "choices"));
        String answer;
        String kind;
        if (ansType.equals("choice")) {
            Object c = row.get("choiceAns");
            if (c == null) throw ref.missing("choiceAns", "the correct option (0-based index or letter)");
            if (c instanceof Number n) answer = String.valueOf((char) ('A' + n.intValue()));
            else answer = String.valueOf(c).trim().toUpperCase(Locale.ROOT);
            kind = "choice";
        } else {
            Object b = row.get("blankAns");
            if (b == null) throw ref.missing("blankAns", "the gold answer of a blank question");
            answer = String.valueOf(b);
            kind = "free";
        }
        return build(id, row, q, imgs, answer, kind, opts, RowRef.firstOr("babyvision", row, "type", "category", "task_type"));
    }
}
