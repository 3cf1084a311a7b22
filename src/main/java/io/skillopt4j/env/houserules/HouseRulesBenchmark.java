package io.skillopt4j.env.houserules;

import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Thread-safe. House-rules: tasks whose answers follow conventions the question never states; hard = exact. */
public final class HouseRulesBenchmark extends ChatBenchmark {
    /** The rollout system prompt; {@code {skill_section}} is last so everything after {@code ## Skill} is the skill. */
    public static final String SYSTEM_TEMPLATE = """
            You answer short questions for the operations team of a company that has its own house style.
            Give the fact the question asks for, written the way the team writes it.
            Think briefly, then put only the final answer inside <answer>...</answer>.

            {skill_section}""";

    /** With the splits a run writes into its folder. */
    HouseRulesBenchmark(BenchmarkContext context, HouseRulesData data, io.skillopt4j.env.GeneratedSplits generated) {
        super("house-rules", context, data.loader().withGenerated(generated));
    }

    @Override public List<String> taskTypes() { return HouseCategory.keys(); }

    @Override protected int defaultExecTimeout() { return 60; }

    public static String systemPrompt(String skill) { return renderSystem(SYSTEM_TEMPLATE, skill); }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String question = item.str("question");
        String gold = item.str("answer");
        String system = systemPrompt(ctx.request().skill());
        String reply = ask(ctx, SYSTEM_TEMPLATE, question, null);
        String predicted = HouseScoring.extractAnswer(reply);
        double hard = HouseScoring.hard(predicted, gold), soft = HouseScoring.soft(predicted, gold);
        Map<String, Object> f = Json.obj("task_type", item.taskType(), "question", question, "task_description", question,
                "predicted_answer", predicted, "gold_answers", List.of(gold), "response", reply,
                "fail_reason", hard == 1.0 ? "" : item.taskType() + "_format: expected '" + gold + "', got '" + predicted + "'",
                "agent_ok", true, "n_turns", 1);
        List<Map<String, Object>> conversation = new ArrayList<>();
        conversation.add(Json.obj("type", "message", "turn", 1, "content", reply));
        if (ctx.request().evalFeedback()) {
            conversation.add(Json.obj("role", "system", "content", String.format(Locale.ROOT,
                    "[EVALUATION RESULT]%nQuestion: %s%nTask type: %s%nPredicted answer: '%s'%nGold answer: '%s'%nExact Match: %.1f%nToken F1: %.4f",
                    question, item.taskType(), predicted, gold, hard, soft)));
        }
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), hard, soft, f), conversation, system, question, Map.of());
    }
}
