package io.skillopt4j.env;

import io.skillopt4j.config.Setting;
import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.config.FlatConfig;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Thread-safe. An LLM judge grading as SimpleQA/SealQA do, by {@code judge_model}, else the optimizer model. */
public final class LlmJudge implements Judge {
    private static final Pattern LETTER = Pattern.compile("\\b([ABC])\\b");
    private static final AtomicReference<BiFunction<BenchmarkContext, String, ChatModel>> RESOLVER =
            new AtomicReference<>(LlmJudge::defaultModel);

    private final ChatModel model;
    private final int maxTokens;
    private final int retries;

    public LlmJudge(ChatModel model, int maxTokens, int retries) {
        this.model = Objects.requireNonNull(model, "model");
        this.maxTokens = maxTokens;
        this.retries = Math.max(1, retries);
    }

    static ChatModel defaultModel(BenchmarkContext ctx, String judgeModel) {
        if (judgeModel == null || judgeModel.isBlank()) return ctx.roles().optimizer();
        FlatConfig c = ctx.config();
        String backend = Setting.string("optimizer_backend").of(c);
        return Backends.chat(backend, c.with("optimizer_model", judgeModel), "optimizer", System.getenv(), ctx.roles().usage());
    }

    /** Installs how {@code judge_model} becomes a chat model (context, model name → model). */
    public static void resolver(BiFunction<BenchmarkContext, String, ChatModel> r) { RESOLVER.set(Objects.requireNonNull(r)); }

    /** The judge a benchmark's config asks for. */
    public static LlmJudge fromConfig(BenchmarkContext ctx) {
        FlatConfig c = ctx.config();
        return new LlmJudge(RESOLVER.get().apply(ctx, Setting.string("judge_model").of(c).trim()),
                Setting.integer("judge_max_completion_tokens").of(c), Setting.integer("judge_retries").of(c));
    }

    static String prompt(String question, String gold, String predicted) {
        return "Grade a predicted answer against a gold target for the question below.\n"
                + "- CORRECT: the prediction contains the essential information of the gold target and nothing that contradicts it "
                + "(case, punctuation, order and harmless extra detail do not matter; numbers must agree to the gold's precision).\n"
                + "- INCORRECT: the prediction contradicts the gold target, is incomplete, or hedges between several answers.\n"
                + "- NOT_ATTEMPTED: the prediction declines, asks for more context, or gives no concrete answer.\n\n"
                + "Question: " + question + "\nGold target: " + gold + "\nPredicted answer: " + predicted + "\n\n"
                + "Reply with one letter only: A for CORRECT, B for INCORRECT, C for NOT_ATTEMPTED.";
    }

    /** Parses a judge reply: a standalone A/B/C letter, else the grade words; anything else is INCORRECT. */
    static String parse(String reply) {
        String t = reply == null ? "" : reply.trim();
        Matcher m = LETTER.matcher(t);
        if (m.find()) return switch (m.group(1)) { case "A" -> "CORRECT"; case "B" -> "INCORRECT"; default -> "NOT_ATTEMPTED"; };
        String u = t.toUpperCase(Locale.ROOT);
        if (u.contains("NOT_ATTEMPTED") || u.contains("NOT ATTEMPTED")) return "NOT_ATTEMPTED";
        if (u.contains("INCORRECT")) return "INCORRECT";
        if (u.contains("CORRECT")) return "CORRECT";
        return "INCORRECT";
    }

    @Override
    public Verdict grade(String question, String gold, String predicted) {
        String reply = model.chat(ChatRequest.builder().user(prompt(question, gold, predicted)).stage("judge")
                .maxCompletionTokens(maxTokens).retries(retries).build()).text();
        return new Verdict(parse(reply), reply);
    }
}
