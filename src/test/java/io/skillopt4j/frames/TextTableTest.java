package io.skillopt4j.frames;

import org.junit.jupiter.api.Test;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class TextTableTest {
    private static Frame frame(int rows) {
        IntColumn n = IntColumn.create("n");
        StringColumn s = StringColumn.create("text");
        for (int i = 0; i < rows; i++) {
            n.append(i);
            s.append(i == 0 ? "a very long cell that goes on\nand on past the cap" : "r" + i);
        }
        return new Frame("t", new ArrayList<>(List.of(n, s)), null);
    }

    @Test
    void printsHeaderRuleRowsAndFooterWithCellsCut() {
        assertEquals("\nn  text\n-  --------------------\n0  a very long cell th…\n1  r1\n2 rows x 2 columns",
                frame(2).print(20, 20));
    }

    @Test
    void capsRowsShowingFirstAndLastWithAnEllipsisRow() {
        String text = frame(30).print(4, 20);
        assertEquals(List.of("", "n   text", "--  --------------------", "0   a very long cell th…", "1   r1", "…   …",
                "28  r28", "29  r29", "30 rows x 2 columns"), List.of(text.split("\n", -1)));
    }
}
