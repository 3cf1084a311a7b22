package io.skillopt4j.env.houserules;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe. The {@code house-rules} benchmark: short tasks whose right answer depends on house conventions
 * (date, number, money, unit, naming, ordering, time, percent, yes/no and heading formats) that the question
 * never states, so a skill that writes the conventions down is what makes the target right. One chat call per
 * task; scoring is exact match (hard) and token F1 (soft). Rollout folders follow upstream's layout.
 */
public final class HouseRulesBenchmark implements Benchmark {
    static final String SYSTEM_PREAMBLE = """
            You answer short questions for the operations team of a company that has its own house style.
            Give the fact the question asks for, written the way the team writes it.

            Think briefly, then put only the final answer inside <answer>...</answer>.
            """;

    private final HouseRulesData data;
    private final ChatModel target;
    private final int workers;
    private final Duration timeout;

    public HouseRulesBenchmark(HouseRulesData data, ChatModel target, int workers, Duration timeout) {
        this.data = data;
        this.target = target;
        this.workers = Math.max(1, workers);
        this.timeout = timeout;
    }

    @Override public String name() { return "house-rules"; }

    @Override public DataLoader data() { return data; }

    @Override public List<String> taskTypes() { return HouseCategory.keys(); }

    /** Returns the target's system prompt for a skill: the preamble plus a {@code ## Skill} section (omitted when blank). */
    public static String systemPrompt(String skill) {
        String s = skill == null ? "" : skill.strip();
        return s.isEmpty() ? SYSTEM_PREAMBLE : SYSTEM_PREAMBLE + "\n## Skill\n" + s + "\n";
    }

    @Override public List<RolloutResult> rollout(RolloutRequest request) {
        return new HouseRollout(this::runOne, workers).run(request);
    }

    /** Runs one task: one target call, scored, with the conversation to persist. */
    HouseRollout.Outcome runOne(Item item, String skill, boolean evalFeedback) {
        String system = systemPrompt(skill);
        String user = item.str("question");
        String gold = item.str("answer");
        ChatRequest.Builder rb = ChatRequest.builder().system(system).user(user).stage("rollout").retries(5).maxCompletionTokens(1024);
        if (timeout != null) rb.timeout(timeout);
        ChatResponse resp = target.chat(rb.build());
        String reply = resp.text();
        String predicted = HouseScoring.extractAnswer(reply);
        double hard = HouseScoring.hard(predicted, gold), soft = HouseScoring.soft(predicted, gold);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("task_type", item.taskType());
        f.put("question", user);
        f.put("task_description", user);
        f.put("predicted_answer", predicted);
        f.put("gold_answers", List.of(gold));
        f.put("response", reply);
        f.put("fail_reason", hard == 1.0 ? "" : item.taskType() + "_format: expected '" + gold + "', got '" + predicted + "'");
        f.put("agent_ok", true);
        f.put("n_turns", 1);
        List<Map<String, Object>> conversation = new java.util.ArrayList<>();
        Map<String, Object> turn = new LinkedHashMap<>();
        turn.put("type", "message");
        turn.put("turn", 1);
        turn.put("content", reply);
        conversation.add(turn);
        if (evalFeedback) {
            conversation.add(Map.of("role", "system", "content", String.format(Locale.ROOT,
                    "[EVALUATION RESULT]%nQuestion: %s%nTask type: %s%nPredicted answer: '%s'%nGold answer: '%s'%nExact Match: %.1f%nToken F1: %.4f",
                    user, item.taskType(), predicted, gold, hard, soft)));
        }
        return new HouseRollout.Outcome(new RolloutResult(item.id(), hard, soft, f), conversation, system, user);
    }
}
