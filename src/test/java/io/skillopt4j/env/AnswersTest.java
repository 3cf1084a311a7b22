package io.skillopt4j.env;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Differential: the index scans find what {@code <answer>(.*?)</answer>} (CASE_INSENSITIVE | DOTALL) finds. */
class AnswersTest {
    private static final Pattern ANSWER = Pattern.compile("<answer>(.*?)</answer>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private static String lastByRegex(String t) {
        Matcher m = ANSWER.matcher(t);
        String last = null;
        while (m.find()) last = m.group(1);
        return last != null ? last.trim() : Answers.lastNonEmptyLine(t);
    }

    private static String firstByRegex(String t) {
        Matcher m = ANSWER.matcher(t);
        return m.find() ? m.group(1).trim() : null;
    }

    @Test
    void findsWhatTheRegexFinds() {
        String[] parts = {"<answer>", "</answer>", "<ANSWER>", "</Answer>", "<answeR>", "<ans", "wer>", "</", "<", ">",
            "x", " ", "\n", "\r\n", "Paris", "ſ", "\u212a", "<anſwer>", "</anſwer>", "é"};
        Random r = new Random(5);
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0, n = r.nextInt(10); k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            String t = sb.toString();
            assertEquals(lastByRegex(t), Answers.lastTagOrLastLine(t), t);
            assertEquals(firstByRegex(t), Answers.firstTag(t), t);
        }
        assertEquals("Paris", Answers.lastTagOrLastLine("I think.\n<answer>Lyon</answer> no: <ANSWER> Paris </answer>"));
        assertEquals("", Answers.lastTagOrLastLine(null));
    }
}
