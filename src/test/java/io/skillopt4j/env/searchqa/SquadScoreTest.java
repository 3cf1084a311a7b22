package io.skillopt4j.env.searchqa;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SquadScore normalises as SkillOpt's Python SQuAD scorer does ({@code str.lower}, {@code re}, {@code str.split}). */
class SquadScoreTest {
    /** SkillOpt's normalize_answer, verbatim; reads a JSON list of texts on stdin, writes their normal forms. */
    private static final String PYTHON = String.join("\n",
            "import re, string, sys, json",
            "def normalize_answer(s):",
            "    def remove_articles(text): return re.sub(r'\\b(a|an|the)\\b', ' ', text)",
            "    def white_space_fix(text): return ' '.join(text.split())",
            "    def remove_punc(text):",
            "        exclude = set(string.punctuation)",
            "        return ''.join(ch for ch in text if ch not in exclude)",
            "    return white_space_fix(remove_articles(remove_punc(s.lower())))",
            "json.dump([normalize_answer(c) for c in json.load(sys.stdin)], sys.stdout)");

    /**
     * Inputs and what python3 (3.11) printed for them with the script above: Python's whitespace (U+001C–U+001F,
     * no-break and ideographic spaces, NEL), its word characters (a combining mark, U+203F and the joiners are not
     * word characters; ½ and a letter outside the BMP are), final sigma (also before "_", where Java's own rule keeps σ) and İ.
     */
    @Test
    void normalisesAsPythonPrinted() {
        String[][] cases = {
            {"\u001cthe\u001fcat\u001d", "cat"}, {"Moby\u001eDick", "moby dick"}, {"a\u00a0b\u3000the", "b"},
            {"\ud835\udc00a cat", "\ud835\udc00a cat"}, {"the\u0301 cat", "\u0301 cat"}, {"the\u203fcat", "\u203fcat"},
            {"\u00bdthe x", "\u00bdthe x"}, {"\u0661the", "\u0661the"}, {"\u0391\u03a3 \u039f\u03a3.", "\u03b1\u03c2 \u03bf\u03c2"},
            {"x\u200dthe\u200c y", "x\u200d \u200c y"}, {"\u2007the\u202fend\u0085", "end"}, {"\u0130stanbul the", "i\u0307stanbul"},
            {"The  Nile-River!", "nileriver"}, {" A an THE ", ""}, {"\u0391\u03a3_\u00e9", "\u03b1\u03c2\u00e9"}};
        for (String[] c : cases) assertEquals(c[1], SquadScore.normalize(c[0]), c[0]);
    }

    @Test
    void normalisesAsPythonOnRandomText() throws Exception {
        String[] parts = {"a", "an", "the", "The", "A", "AN", "x", "é", "ß", "İ", "Σ", "漢", "٣", "½", "_", "‿", "\u0301",
            "\u0903", "\u200C", "\u200D", "😀", "𝐀", " ", "  ", "\t", "\n", "\u000B", "\u001C", "\u001F", "\u00A0", "\u3000",
            "\u2028", "\u0085", "\u2007", "\u200B", "-", ".", ",", "'", "!", "~", "(", "0", "9", "theatre", "ant", "at"};
        Random r = new Random(42);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0, n = r.nextInt(9); k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            texts.add(sb.toString());
        }
        List<Object> expected = python(Json.compact(texts));
        for (int i = 0; i < texts.size(); i++) {
            String s = texts.get(i);
            assertEquals(expected.get(i), SquadScore.normalize(s), () -> "for " + s.codePoints().mapToObj(Integer::toHexString).toList());
        }
    }

    private static List<Object> python(String input) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", PYTHON).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException noPython) {
            Assumptions.abort("python3 is not on the PATH: the differential check against Python's str.split() needs it");
            throw noPython;
        }
        try (var in = p.getOutputStream()) { in.write(input.getBytes(StandardCharsets.UTF_8)); }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), "python3 failed");
        return Json.parseArray(out);
    }

    @Test
    void gradesWithTheSameTokens() {
        assertEquals(new SquadScore.Grade(1, 1.0, 1), SquadScore.grade("The Nile.", List.of("nile")));
        assertEquals(new SquadScore.Grade(0, 2 * 0.5 * 1.0 / 1.5, 1), SquadScore.grade("river nile", List.of("the Nile")));
        assertEquals(new SquadScore.Grade(0, 0.0, 0), SquadScore.grade("", List.of("nile")));
        assertEquals(new SquadScore.Grade(1, 1.0, 1), SquadScore.grade("Moby\u001fDick", List.of("moby dick")), "U+001F splits as in Python");
    }
}
