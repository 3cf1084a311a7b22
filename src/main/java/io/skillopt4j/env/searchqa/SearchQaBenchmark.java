package io.skillopt4j.env.searchqa;

import io.skillopt4j.env.Answers;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Fields;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.internal.Json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. SearchQA (Jeopardy clues with retrieved snippets), graded by SQuAD exact match (hard) and F1 (soft). */
public final class SearchQaBenchmark extends ChatBenchmark {
    static final int CONTEXT_CAP = 6000;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("searchqa", "Jeopardy-style QA over retrieved snippets; SQuAD EM (hard) / F1 (soft)",
                SearchQaBenchmark::new); }
    }

    public SearchQaBenchmark(BenchmarkContext ctx) {
        super("searchqa", ctx, SplitDataLoader.ratio("searchqa", ctx, SearchQaBenchmark::item));
    }

    static Item item(Map<String, Object> row, RowRef ref) {
        String id = ref.requireString(row, "id");
        ref.requireString(row, "question");
        return new Item(id, Json.put(new LinkedHashMap<>(row), "context", Fields.optString(row, "context", ref),
                "answers", Fields.stringList(row, row.containsKey("answers") ? "answers" : "answer", ref)));
    }

    @Override protected int defaultWorkers() { return 24; }

    @Override public List<String> taskTypes() { return List.of("qa"); }

    /** Keeps whole {@code [DOC]} chunks from the start while they fit in 6000 chars; else hard-cuts the first. */
    static String truncateContext(String context) {
        if (context.length() <= CONTEXT_CAP) return context;
        String[] chunks = context.split("(?=\\[DOC\\])");
        StringBuilder sb = new StringBuilder();
        for (String c : chunks) {
            if (sb.length() + c.length() > CONTEXT_CAP) break;
            sb.append(c);
        }
        if (sb.length() == 0) return context.substring(0, CONTEXT_CAP) + "...[truncated]";
        return sb.toString();
    }

    static String userPrompt(Item item) {
        return "## Context\n" + truncateContext(item.str("context")) + "\n\n## Question\n" + item.str("question");
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String template = resource("searchqa", "rollout_system.md");
        String user = userPrompt(item);
        Turns talk = converse(ctx, template, user, (turn, reply) -> turn > 1 && Answers.hasTag(reply) ? null
                : "Your previous answer was: " + Answers.lastTagOrLastLine(reply)
                + "\nReview the context and the question once more, then give your final answer inside <answer>...</answer>.");
        String reply = talk.reply();
        String predicted = Answers.lastTagOrLastLine(reply);
        List<String> golds = item.list("answers");
        SquadScore.Grade grade = SquadScore.grade(predicted, golds);
        int em = grade.em();
        double f1 = grade.f1();
        Map<String, Object> f = Json.obj("question", item.str("question"), "em", em, "f1", f1, "sub_em", grade.subEm(),
                "predicted_answer", predicted, "gold_answers", golds);
        replyFields(f, reply, em == 0 ? "EM=0: predicted " + Fields.pyRepr(predicted) + " but expected " + Fields.pyRepr(golds) : null,
                talk.turns());
        talk.conversation().add(evaluation("Question: " + item.str("question")
                + "\nPredicted answer: " + Fields.pyRepr(predicted) + "\nGold answers: " + Fields.pyRepr(golds)
                + "\nExact Match: " + (double) em + "\nF1: " + io.skillopt4j.internal.Decimals.fixed(f1, 4)));
        return outcome(item, em, f1, f, talk.conversation(), ctx, template, user);
    }
}
