package io.skillopt4j.env.vision;

import io.skillopt4j.internal.Json;
import io.skillopt4j.config.Setting;
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

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Thread-safe. Image QA (MathVerse, MMRB, BabyVision): option letter, exact match, else an LLM judge. */
public final class ImageQaBenchmark extends ChatBenchmark {
    private static final Pattern BOXED = Pattern.compile("\\\\boxed\\{([^{}]*(?:\\{[^{}]*}[^{}]*)*)}");
    private static final Pattern LETTER = Pattern.compile("^\\(?([A-Z])(?:[).:]|\\s|$)");
    private final Judge judge;

    interface Mapper {
        Item map(Map<String, Object> row, RowRef ref, String dataRoot);
    }

    public static final class MathVerse extends BenchmarkFactory.Named {
        public MathVerse() { super("mathverse", "visual math problems (6 problem versions); choice letter or LLM judge",
                ctx -> new ImageQaBenchmark("mathverse", ctx, VisionItems::mathverse, LlmJudge.fromConfig(ctx))); }
    }

    public static final class Mmrb extends BenchmarkFactory.Named {
        public Mmrb() { super("mmrb", "multi-image reasoning; choice letter or LLM judge",
                ctx -> new ImageQaBenchmark("mmrb", ctx, VisionItems::mmrb, LlmJudge.fromConfig(ctx))); }
    }

    public static final class BabyVision extends BenchmarkFactory.Named {
        public BabyVision() { super("babyvision", "core visual reasoning (choice / blank); choice letter or LLM judge",
                ctx -> new ImageQaBenchmark("babyvision", ctx, VisionItems::babyvision, LlmJudge.fromConfig(ctx))); }
    }

    public ImageQaBenchmark(String name, BenchmarkContext ctx, Mapper mapper, Judge judge) {
        super(name, ctx, SplitDataLoader.ratio(name, ctx,
                (row, ref) -> mapper.map(row, ref, Setting.string("data_root").of(ctx.config()))));
        this.judge = judge;
        requireExecInputs(true, false); // every task shows images
    }

    @Override protected int defaultWorkers() { return 16; }

    /** The last {@code <answer>} tag, else the last {@code \boxed{}}, else the last non-empty line. */
    static String extract(String reply) {
        if (Answers.hasTag(reply)) return Answers.lastTagOrLastLine(reply);
        return BOXED.matcher(reply).results().reduce((a, b) -> b).map(m -> m.group(1).trim())
                .orElseGet(() -> Answers.lastNonEmptyLine(reply));
    }

    /** The option letter an answer names: "B", "(B)", "B.", "B) text", or an option's exact text; else "". */
    static String letter(String answer, List<String> options) {
        String a = answer.trim();
        for (int i = 0; i < options.size(); i++) if (options.get(i).trim().equalsIgnoreCase(a)) return String.valueOf((char) ('A' + i));
        if (a.length() == 1 && Character.isLetter(a.charAt(0))) return a.toUpperCase(Locale.ROOT);
        Matcher m = LETTER.matcher(a);
        return m.find() ? m.group(1) : "";
    }

    static String norm(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        while (t.endsWith(".")) t = t.substring(0, t.length() - 1).trim();
        return t;
    }

    String userPrompt(Item item) {
        StringBuilder sb = new StringBuilder(item.str("question"));
        List<String> opts = item.list("options");
        if (!opts.isEmpty()) {
            sb.append("\n\nOptions:");
            for (int i = 0; i < opts.size(); i++) sb.append('\n').append((char) ('A' + i)).append(". ").append(opts.get(i));
        }
        sb.append(item.str("kind").equals("choice") ? "\n\nAnswer with the option letter inside <answer>...</answer>."
                : "\n\nPut only the final answer inside <answer>...</answer>.");
        return sb.toString().trim();
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String template = resource(name, "rollout_system.md");
        String user = userPrompt(item);
        List<String> images = item.list("images");
        String reply = ask(ctx, template, user, images.stream().map(Path::of).toList());
        String predicted = extract(reply);
        String gold = item.str("answer");
        List<String> opts = item.list("options");
        boolean ok;
        String how;
        if (item.str("kind").equals("choice")) {
            String goldLetter = letter(gold, opts);
            ok = !goldLetter.isEmpty() && goldLetter.equals(letter(predicted, opts));
            how = "choice";
        } else if (norm(predicted).equals(norm(gold))) {
            ok = true;
            how = "exact";
        } else {
            Judge.Verdict v = judge.grade(item.str("question"), gold, predicted);
            ok = v.correct();
            how = "judge:" + v.grade();
        }
        double s = ok ? 1 : 0;
        Map<String, Object> f = itemFields(item, "predicted_answer", predicted, "gold_answer", gold, "grading", how);
        replyFields(f, reply, !ok ? "predicted '" + predicted + "' but expected '" + gold + "' (" + how + ")" : null, 1);
        String imgNote = images.stream().map(p -> "\n[image] " + Path.of(p).getFileName()).collect(Collectors.joining());
        List<Map<String, Object>> conv = List.of(Json.obj("role", "user", "content", user + imgNote), turn(1, reply),
                evaluation("Predicted answer: " + predicted + "\nGold answer: " + gold + "\nGrading: " + how + "\nCorrect: " + (ok ? 1 : 0)));
        return outcome(item, s, s, f, conv, ctx, template, user);
    }
}
