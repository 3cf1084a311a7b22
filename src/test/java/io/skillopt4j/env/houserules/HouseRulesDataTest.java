package io.skillopt4j.env.houserules;

import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.houserules.HouseCategory.Style;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

class HouseRulesDataTest {
    private final HouseRulesData data = HouseRulesData.generate(42, 24, new int[] {2, 1, 3});

    @Test void generatesAtLeast200ItemsInTenCategoriesWithStratifiedDisjointSplits() {
        assertEquals(80, data.train().size());
        assertEquals(40, data.val().size());
        assertEquals(120, data.test().size());
        assertEquals(240, data.all().size());
        assertEquals(10, HouseCategory.values().length);
        for (List<Item> split : List.of(data.train(), data.val(), data.test()))
            assertEquals(Set.copyOf(HouseCategory.keys()), split.stream().map(Item::taskType).collect(Collectors.toSet()));
        Set<String> ids = new HashSet<>(), questions = new HashSet<>();
        for (Item it : data.all()) {
            assertTrue(ids.add(it.id()), "duplicate id " + it.id());
            assertTrue(questions.add(it.str("question")), "duplicate question " + it.str("question"));
            assertTrue(it.id().startsWith(it.taskType() + "-"));
        }
    }

    @Test void sameSeedSameItemsOtherSeedOtherItems() {
        assertEquals(data, HouseRulesData.generate(42, 24, new int[] {2, 1, 3}));
        assertNotEquals(data.test(), HouseRulesData.generate(43, 24, new int[] {2, 1, 3}).test());
    }

    @Test void goldIsTheHouseFormatAndNeverTheNaiveOrDecoyAnswer() {
        for (Item it : data.all()) {
            HouseCategory c = HouseCategory.byKey(it.taskType()).orElseThrow();
            String q = it.str("question");
            assertEquals(c, HouseTasks.categoryOf(q).orElseThrow(), q);
            assertEquals(it.str("answer"), HouseTasks.answer(c, q, Style.HOUSE).orElseThrow());
            assertNotEquals(it.str("answer"), HouseTasks.answer(c, q, Style.NAIVE).orElseThrow(), q);
            assertNotEquals(it.str("answer"), HouseTasks.answer(c, q, Style.DECOY).orElseThrow(), q);
        }
    }

    @Test void evalBatchesKeepSplitOrderAndAreBalancedAtTheFront() {
        BatchSpec b = data.loader().buildEvalBatch(10, "valid_seen", 42);
        assertEquals(10, b.size());
        assertEquals(Set.copyOf(HouseCategory.keys()), b.items().stream().map(Item::taskType).collect(Collectors.toSet()));
        assertEquals(data.test().get(0), data.loader().buildEvalBatch(0, "valid_unseen", 1).items().get(0));
        assertEquals(20, data.limited(20).train().size());
    }

    @Test void badSizesAreOneLineConfigErrors() {
        var e = assertThrows(io.skillopt4j.ConfigException.class, () -> HouseRulesData.generate(1, 2, new int[] {2, 1, 3}));
        assertTrue(e.getMessage().contains("house_rules_per_category"), e.getMessage());
        var r = assertThrows(io.skillopt4j.ConfigException.class, () -> HouseRulesFactory.parseRatio("2:0:3"));
        assertTrue(r.getMessage().contains("house_rules_split"), r.getMessage());
    }
}
