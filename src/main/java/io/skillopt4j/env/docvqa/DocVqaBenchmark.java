package io.skillopt4j.env.docvqa;

import io.skillopt4j.internal.Json;
import io.skillopt4j.config.Setting;
import io.skillopt4j.env.Answers;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Fields;
import io.skillopt4j.env.Images;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.SplitDataLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. DocVQA: a question about a scanned page, graded by ANLS (soft) and ANLS ≥ 0.999 (hard). */
public final class DocVqaBenchmark extends ChatBenchmark {
    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("docvqa", "document image QA; ANLS (soft), exact after normalisation (hard)",
                DocVqaBenchmark::new); }
    }

    public DocVqaBenchmark(BenchmarkContext ctx) {
        super("docvqa", ctx, SplitDataLoader.builder("docvqa", ctx)
                .reader(SplitDataLoader::readFirstCsvOrJson).mapper((row, ref) -> item(row, ref, Setting.string("data_root").of(ctx.config()))).build());
        requireExecInputs(true, false); // every task is a page image
    }

    static Item item(Map<String, Object> row, RowRef ref, String dataRoot) {
        String id = RowRef.text(ref.requireFirst(row, "the question id", "questionId", "id"));
        String question = ref.requireString(row, "question");
        String imagePath = RowRef.firstOr("", row, "image_path");
        int marker = question.lastIndexOf("document_path:");
        if (marker >= 0) {
            String tail = question.substring(marker + "document_path:".length()).trim();
            question = question.substring(0, marker).trim();
            if (imagePath.isBlank()) imagePath = tail;
        }
        if (imagePath.isBlank()) throw ref.missing("image_path", "the page image path");
        Path image = Images.resolve(imagePath, dataRoot);
        if (!Files.isRegularFile(image)) throw ref.bad("image_path", "an existing image file (resolved under data_root)", image.toString());
        Object ans = ref.requireFirst(row, "a list of gold answers", "answer", "ground_truth", "answers");
        List<String> answers = ans instanceof List<?> l ? l.stream().map(String::valueOf).toList() : stringList(String.valueOf(ans));
        if (answers == null) throw ref.bad("answer", "a list literal like ['x', 'y']", ans);
        if (answers.isEmpty()) throw ref.bad("answer", "at least one gold answer", ans);
        return new Item(id, Json.put(new LinkedHashMap<>(row), "question", question, "answer", answers.get(0), "answers", answers,
                "task_type", RowRef.firstOr("docvqa", row, "topic", "category"), "image_path", image.toString(),
                "image_paths", List.of(image.toString())));
    }

    /** The strings of a Python or JSON list literal (upstream's CSV answers); other text is one answer; null: malformed. */
    static List<String> stringList(String text) {
        String t = text.trim();
        if (!t.startsWith("[") || !t.endsWith("]")) return List.of(text);
        List<String> out = new ArrayList<>();
        int i = 1;
        int end = t.length() - 1;
        while (i < end) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c) || c == ',') { i++; continue; }
            if (c != '\'' && c != '"') {
                int j = i;
                while (j < end && t.charAt(j) != ',') j++;
                out.add(t.substring(i, j).trim());
                i = j;
                continue;
            }
            StringBuilder sb = new StringBuilder();
            int j = i + 1;
            boolean closed = false;
            while (j < end) {
                char d = t.charAt(j);
                if (d == '\\' && j + 1 < end) {
                    char e = t.charAt(j + 1);
                    sb.append(switch (e) { case 'n' -> '\n'; case 't' -> '\t'; case 'r' -> '\r'; default -> e; });
                    j += 2;
                    continue;
                }
                if (d == c) { closed = true; break; }
                sb.append(d);
                j++;
            }
            if (!closed) return null;
            out.add(sb.toString());
            i = j + 1;
        }
        return out;
    }

    @Override protected int defaultWorkers() { return 16; }

    @Override public List<String> taskTypes() { return taskTypesOfData(List.of("docvqa")); }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String template = resource("docvqa", "rollout_system.md");
        String user = item.str("question") + "\n\nReturn the final answer inside <answer>...</answer>.";
        Path image = Path.of(item.str("image_path"));
        String reply = ask(ctx, template, user, List.of(image));
        String predicted = Answers.rfindTag(reply);
        List<String> golds = item.list("answers");
        double anls = Anls.score(predicted, golds);
        double hard = anls >= 0.999 ? 1 : 0;
        List<Map<String, Object>> conv = List.of(Json.obj("role", "user", "content", item.str("question") + "\n[image] " + image.getFileName()),
                turn(1, reply), evaluation("Question: " + item.str("question") + "\nPredicted answer: " + predicted
                        + "\nGold answers: " + Fields.pyRepr(golds) + "\nANLS: " + io.skillopt4j.internal.Decimals.fixed(anls, 4)));
        Map<String, Object> f = itemFields(item, "anls", anls, "predicted_answer", predicted, "gold_answers", golds);
        replyFields(f, reply, anls <= 0 ? "ANLS=0: predicted '" + predicted + "' but expected " + Fields.pyRepr(golds) : null, 1);
        return outcome(item, hard, anls, f, conv, ctx, template, user);
    }
}
