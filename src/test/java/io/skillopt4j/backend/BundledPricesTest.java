package io.skillopt4j.backend;

import io.skillopt4j.internal.Resources;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class BundledPricesTest {
    private static Object snake(String text) { return new Yaml(new SafeConstructor(new LoaderOptions())).load(text); }

    @Test void theBundledTableReadsAsSnakeYamlReadsIt() {
        String text = Resources.find("/io/skillopt4j/backend/prices.yaml").orElseThrow();
        Map<String, Object> ours = BundledPrices.parse(text);
        assertNotNull(ours, "the bundled prices.yaml left the shape BundledPrices reads: update it or the file");
        assertEquals(snake(text), ours);
        assertEquals(String.join(",", ((Map<?, ?>) snake(text)).keySet().stream().map(String::valueOf).toList()),
                String.join(",", ours.keySet()), "same order");
        assertTrue(ours.size() >= 10);
        assertNotNull(PriceTable.defaults().find("gpt-4o"));
    }

    @Test void numbersAreTheTypesSnakeYamlGives() {
        String text = "# c\n\nm-1.5:  {prompt: 2.50, completion: 10, cached: 0}\r\nx: {batch: 0.5}\n";
        assertEquals(snake(text), BundledPrices.parse(text));
        assertEquals(Integer.valueOf(10), ((Map<?, ?>) BundledPrices.parse(text).get("m-1.5")).get("completion"));
    }

    @Test void anyOtherShapeIsLeftToSnakeYaml() {
        for (String text : new String[] {"", "# only a comment\n", "on: {prompt: 1.0}\n", "m: {prompt: 1.0} # note\n",
                "m: {prompt: 1e3}\n", "m: {prompt: 1.0, prompt: 2.0}\n", "m: {prompt: 1.0}\nm: {prompt: 2.0}\n",
                "m:\n  prompt: 1.0\n", "'m': {prompt: 1.0}\n", "m: {prompt: -1.0}\n", "m: {prompt: 01}\n", "m: {}\n"}) {
            assertNull(BundledPrices.parse(text), text);
        }
    }
}
