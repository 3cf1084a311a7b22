package io.skillopt4j.env.sealqa;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.Answers;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.Judge;
import io.skillopt4j.env.LlmJudge;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.SplitDataLoader;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. SealQA: questions whose search results conflict, graded by an LLM judge (1 iff CORRECT). */
public final class SealQaBenchmark extends ChatBenchmark {
    static final int CONTEXT_CAP = 24_000;
    private final Judge judge;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("sealqa", "search-augmented QA with conflicting evidence; LLM judge (CORRECT = 1)",
                ctx -> new SealQaBenchmark(ctx, LlmJudge.fromConfig(ctx))); }
    }

    public SealQaBenchmark(BenchmarkContext ctx, Judge judge) {
        super("sealqa", ctx, SplitDataLoader.ratio("sealqa", ctx, SealQaBenchmark::item));
        this.judge = judge;
    }

    static Item item(Map<String, Object> row, RowRef ref) {
        ref.requireString(row, "question");
        Object gold = ref.requireFirst(row, "the gold answer", "answer", "gold", "ground_truth");
        Object idv = RowRef.first(row, "id", "qid", "uid");
        String id = idv != null ? String.valueOf(idv) : ref.file().getParent().getFileName() + "-" + String.format("%04d", ref.index());
        return new Item(id, Json.put(new LinkedHashMap<>(row), "answer", String.valueOf(gold),
                "task_type", RowRef.firstOr("sealqa", row, "topic", "task_type", "category")));
    }

    @Override protected int defaultWorkers() { return 16; }

    @Override protected int defaultExecTimeout() { return 300; }

    /** Renders the item's documents: a list of strings or {title, url, content|snippet|text} maps, or a string. */
    static String evidence(Item item) {
        Object v = RowRef.first(item.fields(), "search_results", "documents", "context");
        if (v == null) return "";
        StringBuilder sb = new StringBuilder();
        if (v instanceof List<?> l) {
            int n = 1;
            for (Object o : l) {
                sb.append("[DOC ").append(n++).append("] ");
                if (o instanceof Map<?, ?> m) {
                    if (m.get("title") != null) sb.append(m.get("title")).append('\n');
                    if (m.get("url") != null) sb.append(m.get("url")).append('\n');
                    Object body = m.get("content") != null ? m.get("content") : m.get("snippet") != null ? m.get("snippet") : m.get("text");
                    if (body != null) sb.append(body);
                } else {
                    sb.append(o);
                }
                sb.append("\n\n");
            }
        } else {
            sb.append(v);
        }
        String s = sb.toString().trim();
        return s.length() > CONTEXT_CAP ? s.substring(0, CONTEXT_CAP) + "...[truncated]" : s;
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String template = resource("sealqa", "rollout_system.md");
        String ev = evidence(item);
        String user = (ev.isEmpty() ? "" : "## Search Results\n" + ev + "\n\n") + "## Question\n" + item.str("question");
        String reply = ask(ctx, template, user, List.of());
        String predicted = Answers.lastTagOrLastLine(reply);
        Judge.Verdict v = judge.grade(item.str("question"), item.str("answer"), predicted);
        double s = v.correct() ? 1 : 0;
        Map<String, Object> f = itemFields(item, "predicted_answer", predicted, "gold_answer", item.str("answer"), "judge_grade", v.grade());
        replyFields(f, reply, !v.correct() ? "judge=" + v.grade() + ": predicted '" + predicted + "' but expected '" + item.str("answer") + "'" : null, 1);
        List<Map<String, Object>> conv = List.of(turn(1, reply), evaluation("Question: " + item.str("question")
                + "\nPredicted answer: " + predicted + "\nGold answer: " + item.str("answer") + "\nJudge grade: " + v.grade()));
        return outcome(item, s, s, f, conv, ctx, template, user);
    }
}
