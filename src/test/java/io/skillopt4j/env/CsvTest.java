package io.skillopt4j.env;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What Python's csv.DictReader gives for upstream's split files (docvqa, officeqa), kept across the reader swap. */
class CsvTest {
    @Test void quotedFieldsDoubledQuotesAndNewlinesInsideQuotes() {
        List<Object> rows = Csv.parse("id,question,answer\n1,\"a, b\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",x\n");
        assertEquals(List.of(Map.of("id", "1", "question", "a, b", "answer", "say \"hi\""),
                Map.of("id", "2", "question", "two\nlines", "answer", "x")), rows);
    }

    @Test void bomCrlfBlankLinesShortRowsAndWhitespaceAsPython() {
        List<Object> rows = Csv.parse("\uFEFFid,q,a\r\n1, padded ,\r\n\r\n2,only\r\n3,\"\",z");
        assertEquals(List.of(Map.of("id", "1", "q", " padded ", "a", ""), Map.of("id", "2", "q", "only", "a", ""),
                Map.of("id", "3", "q", "", "a", "z")), rows);
    }

    @Test void keepsHeaderOrderAndIgnoresCellsPastTheHeader() {
        Map<?, ?> row = (Map<?, ?>) Csv.parse("b,a\n1,2,3\n").get(0);
        assertEquals(List.of("b", "a"), List.copyOf(row.keySet()));
        assertEquals(List.of("1", "2"), List.copyOf(row.values()));
    }

    @Test void emptyTextHasNoRows() {
        assertEquals(List.of(), Csv.parse(""));
        assertEquals(List.of(), Csv.parse("id,q\n"));
    }
}
