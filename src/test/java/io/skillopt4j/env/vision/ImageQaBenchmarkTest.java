package io.skillopt4j.env.vision;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImageQaBenchmarkTest {
    @TempDir Path tmp;

    private Benchmark create(String name, EnvFixtures.Scripted target, EnvFixtures.Scripted judge) {
        Path root = EnvFixtures.resource(name).getParent();
        return Benchmarks.create(name, EnvFixtures.context(Map.of("split_mode", "split_dir", "split_dir", root.resolve(name).toString(),
                "data_root", root.toString()), judge, target, tmp));
    }

    @Test
    void answers_are_extracted_from_tags_boxes_or_the_last_line_and_mapped_to_letters() {
        assertEquals("B", ImageQaBenchmark.extract("so <answer>A</answer> no wait <answer>B</answer>"));
        assertEquals("12\\pi", ImageQaBenchmark.extract("area is \\boxed{3} then \\boxed{12\\pi}"));
        assertEquals("\\frac{1}{2}", ImageQaBenchmark.extract("\\boxed{\\frac{1}{2}}"));
        assertEquals("last", ImageQaBenchmark.extract("first\nlast\n\n"));
        List<String> opts = List.of("circle", "square");
        assertEquals("B", ImageQaBenchmark.letter("Square", opts));
        assertEquals("C", ImageQaBenchmark.letter("(C) because", List.of()));
        assertEquals("D", ImageQaBenchmark.letter("D: 140°", List.of()));
        assertEquals("A", ImageQaBenchmark.letter("a", List.of()));
        assertEquals("", ImageQaBenchmark.letter("apple", List.of()));
    }

    @Test
    void mathverse_grades_choices_by_letter_and_free_form_by_exact_match_or_judge() {
        EnvFixtures.Scripted judge = new EnvFixtures.Scripted(req -> req.lastUserText().contains("Predicted answer: 12π") ? "A" : "B");
        EnvFixtures.Scripted target = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("angle ABC")) return "Inscribed angle doubles: <answer>B</answer>";
            if (u.contains("length of AB")) return "\\boxed{5.}";
            if (u.contains("shaded")) return "<answer>12π</answer>";
            if (u.contains("Find x")) return "<answer>4</answer>";
            return "<answer>(A)</answer>";
        });
        Benchmark b = create("mathverse", target, judge);
        assertEquals(List.of("Text Dominant", "Text Lite", "Vision Dominant", "Vision Intensive", "Vision Only"), b.taskTypes());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 0.0, 1.0, 1.0, 0.0, 1.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("exact", rs.get(2).str("grading"));
        assertEquals("judge:CORRECT", rs.get(3).str("grading"));
        assertEquals("judge:INCORRECT", rs.get(4).str("grading"));
        assertEquals(2, judge.requests.size(), "the judge is asked only when exact match fails on free-form answers");
        assertEquals("judge", judge.requests.get(0).stage());
        assertTrue(target.requests.get(0).messages().get(1).imageUrls().get(0).startsWith("data:image/png;base64,"));
    }

    @Test
    void mmrb_sends_every_image_and_lists_options() {
        EnvFixtures.Scripted judge = new EnvFixtures.Scripted(req -> "C");
        EnvFixtures.Scripted target = new EnvFixtures.Scripted(req -> req.lastUserText().contains("maps overlap") ? "<answer>Yes</answer>"
                : req.lastUserText().contains("sequence") ? "<answer>C</answer>" : req.lastUserText().contains("share") ? "<answer>Green.</answer>" : "<answer>A</answer>");
        Benchmark b = create("mmrb", target, judge);
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 1.0, 0.0, 0.0, 1.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("judge:NOT_ATTEMPTED", rs.get(2).str("grading"));
        var seq = target.requests.stream().filter(r -> r.lastUserText().contains("sequence")).findFirst().orElseThrow();
        assertEquals(3, seq.messages().get(1).imageUrls().size());
        assertTrue(seq.lastUserText().contains("Options:\nA. first\nB. second\nC. third\nD. fourth"));
    }

    @Test
    void babyvision_maps_choice_indexes_to_letters_and_judges_blanks() {
        EnvFixtures.Scripted judge = new EnvFixtures.Scripted(req -> req.lastUserText().contains("upper left") ? "A" : "B");
        EnvFixtures.Scripted target = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("different")) return "<answer>B</answer>";
            if (u.contains("cat")) return "<answer>c</answer>";
            if (u.contains("blocks")) return "<answer>8</answer>";
            if (u.contains("pattern")) return "<answer>D</answer>";
            if (u.contains("maze")) return "<answer>upper left</answer>";
            return "<answer>B</answer>";
        });
        Benchmark b = create("babyvision", target, judge);
        assertEquals(List.of("Fine-grained Discrimination", "Spatial Perception", "Visual Pattern Recognition", "Visual Tracking"), b.taskTypes());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 1.0, 0.0, 1.0, 1.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
    }

    @Test
    void a_choice_item_without_its_answer_field_is_reported() throws Exception {
        Path dir = tmp.resolve("bv");
        for (String s : List.of("train", "val", "test")) {
            java.nio.file.Files.createDirectories(dir.resolve(s));
            java.nio.file.Files.writeString(dir.resolve(s).resolve("items.json"),
                    "[{\"taskId\": 1, \"question\": \"q\", \"image\": \"images/page0.png\", \"ansType\": \"choice\"}]");
        }
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("babyvision", EnvFixtures.context(Map.of(
                "split_mode", "split_dir", "split_dir", dir.toString(), "data_root", EnvFixtures.resource("images").getParent().toString()),
                new EnvFixtures.Scripted(r -> ""), tmp)));
        assertEquals(dir.resolve("train/items.json") + ": item 0: field \"choiceAns\" missing (expected the correct option (0-based index or letter))", e.getMessage());
    }
}
