package io.skillopt4j.env.livemath;

import io.skillopt4j.config.Setting;
import io.skillopt4j.env.Answers;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Fields;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.SplitDataLoader;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Thread-safe. LiveMathematicianBench: theorem MCQs, choices re-shuffled per batch; hard = soft = label match. */
public final class LiveMathBenchmark extends ChatBenchmark {
    static final String NAME = "livemathematicianbench";

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super(NAME, "research-level theorem multiple choice; label exact match", LiveMathBenchmark::new); }
    }

    public LiveMathBenchmark(BenchmarkContext ctx) {
        super(NAME, ctx, SplitDataLoader.ratio(NAME, ctx, McqItems::item));
    }

    @Override protected int defaultWorkers() { return 64; }

    @Override protected int defaultExecTimeout() { return 300; }

    @Override
    public List<String> taskTypes() {
        return Stream.of("train", "val", "test").flatMap(s -> data.split(s).stream())
                .flatMap(i -> i.<String>list("theorem_type").stream()).distinct().sorted().toList();
    }

    String userPrompt(Item item) {
        StringBuilder sb = new StringBuilder("## Question\n").append(item.str("question")).append("\n\n## Choices\n");
        for (McqItems.Choice c : McqItems.choices(item)) sb.append(c.label()).append(". ").append(c.text()).append('\n');
        if (Setting.bool("use_theorem").of(cfg) && !item.str("theorem").isBlank()) sb.append("\n## Theorem\n").append(item.str("theorem")).append('\n');
        if (Setting.bool("use_sketch").of(cfg) && !item.str("sketch").isBlank()) sb.append("\n## Proof Sketch\n").append(item.str("sketch")).append('\n');
        return sb.toString().stripTrailing();
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item raw, RolloutRunner.Context ctx) {
        Item item = Setting.bool("shuffle_choices").of(cfg) ? McqItems.shuffled(raw, ctx.request().batch().seed()) : raw;
        String template = resource(NAME, "rollout_system.md");
        String user = userPrompt(item);
        Turns talk = converse(ctx, template, user,
                (turn, reply) -> Answers.hasTag(reply) ? null : "Give only the label of your chosen option inside <answer>...</answer>.");
        String reply = talk.reply();
        List<McqItems.Choice> choices = McqItems.choices(item);
        String answer = Answers.lastTagOrLastLine(reply);
        String predicted = McqItems.predictedLabel(answer, choices);
        String correct = McqItems.correctLabel(item);
        boolean ok = predicted.equals(correct);
        String predictedText = choices.stream().filter(c -> c.label().equals(predicted)).map(McqItems.Choice::text).findFirst().orElse("");
        String correctText = choices.stream().filter(c -> c.label().equals(correct)).map(McqItems.Choice::text).findFirst().orElse("");
        Map<String, Object> f = itemFields(item, "predicted_answer", answer, "predicted_label", predicted,
                "predicted_text", predictedText, "correct_label", correct, "correct_text", correctText);
        replyFields(f, reply, !ok ? "MCQ=0: predicted " + Fields.pyRepr(predicted) + " but expected " + Fields.pyRepr(correct) : null,
                talk.turns());
        talk.conversation().add(evaluation("Predicted label: " + predicted + " (" + predictedText
                + ")\nCorrect label: " + correct + " (" + correctText + ")\nCorrect: " + (ok ? 1 : 0)));
        return outcome(item, ok ? 1 : 0, ok ? 1 : 0, f, talk.conversation(), ctx, template, user);
    }
}
