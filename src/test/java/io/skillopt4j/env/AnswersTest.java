package io.skillopt4j.env;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The answer tags are found as upstream's {@code re.findall(r'<answer>(.*?)</answer>', t, re.I | re.S)} finds them. */
class AnswersTest {
    /** Texts and what python3 printed for {@code m[-1].strip()} and {@code m[0].strip()} of the findall above. */
    @Test
    void findsWhatPythonFinds() {
        String[][] cases = {
            {"I think.\n<answer>Lyon</answer> no: <ANSWER> Paris </answer>", "Paris", "Lyon"},
            {"<an\u017fwer> x\u00a0</ANSWER>", "x", "x"},          // re.I folds the long s; strip() takes the no-break space
            {"<answer>\u001cY\u001f</answer>", "Y", "Y"},           // U+001C..U+001F are whitespace to Python
            {"<answer>a\nb</answer>", "a\nb", "a\nb"},              // re.S: the answer spans lines
            {"<answer>K\u212a</Answer>", "K\u212a", "K\u212a"}};
        for (String[] c : cases) {
            assertEquals(c[1], Answers.lastTagOrLastLine(c[0]), c[0]);
            assertEquals(c[2], Answers.firstTag(c[0]), c[0]);
        }
        assertEquals("last line", Answers.lastTagOrLastLine("first\nlast line\n\u00a0\n"));
        assertNull(Answers.firstTag("<answer>open"));
        assertEquals("", Answers.lastTagOrLastLine(null));
        assertEquals("B", Answers.rfindTag("<answer>A</answer> then <ANSWER> B </answer>"));
    }
}
