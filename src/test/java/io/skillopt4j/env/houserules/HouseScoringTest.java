package io.skillopt4j.env.houserules;

import org.junit.jupiter.api.Test;

import static io.skillopt4j.env.houserules.HouseCategory.*;
import static org.junit.jupiter.api.Assertions.*;

class HouseScoringTest {
    @Test void hardIsExactMatchSoftIsTokenF1() {
        assertEquals(1.0, HouseScoring.hard(" 2024-03-07 ", "2024-03-07"));
        assertEquals(0.0, HouseScoring.hard("March 7, 2024", "2024-03-07"));
        assertEquals(1.0, HouseScoring.soft("2024-03-07", "2024-03-07"));
        double partial = HouseScoring.soft("1234.50 USD", "1234.50 EUR");
        assertTrue(partial > 0.5 && partial < 1.0, "partial " + partial);
        assertEquals(0.0, HouseScoring.soft("Yes", "true"));
    }

    @Test void extractsTheLastAnswerTagOrTheLastLine() {
        assertEquals("15:45", HouseScoring.extractAnswer("thinking <answer>x</answer> then\n<answer> 15:45 </answer>"));
        assertEquals("final", HouseScoring.extractAnswer("a\nfinal\n"));
    }

    @Test void rulesAreRecognisedByPhrasingAndTheLaterOfRuleAndDecoyWins() {
        assertEquals(Style.HOUSE, DATE.styleIn("- Use ISO 8601 for dates."));
        assertEquals(Style.NAIVE, DATE.styleIn("- " + DATE.vague()));
        assertEquals(Style.DECOY, DATE.styleIn("- " + DATE.rule() + "\n- " + DATE.decoy()));
        assertEquals(Style.HOUSE, DATE.styleIn("- " + DATE.decoy() + "\n- " + DATE.rule()));
        for (HouseCategory c : HouseCategory.values()) {
            assertEquals(Style.HOUSE, c.styleIn(c.rule()), c.key());
            assertEquals(Style.DECOY, c.styleIn(c.decoy()), c.key());
            assertEquals(Style.NAIVE, c.styleIn(c.vague()), c.key());
            for (HouseCategory other : HouseCategory.values())
                if (other != c) assertEquals(Style.NAIVE, other.styleIn(c.rule() + "\n" + c.decoy()), c.key() + " leaks into " + other.key());
        }
    }
}
