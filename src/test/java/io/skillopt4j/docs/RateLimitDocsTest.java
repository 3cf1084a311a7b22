package io.skillopt4j.docs;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.AbstractChatModel;
import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.BudgetedChatModel;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.ResolvedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** docs/backends.md, "Rate limits and hedging": its YAML and its command line configure both roles' models as it says. */
class RateLimitDocsTest {
    @TempDir Path tmp;

    static String section() throws Exception {
        String doc = Files.readString(Path.of("docs/backends.md"));
        int at = doc.indexOf("## Rate limits and hedging");
        assertTrue(at >= 0, "docs/backends.md has the section");
        return doc.substring(at, doc.indexOf("\n## ", at + 5));
    }

    private static AbstractChatModel model(ChatModel m) {
        return (AbstractChatModel) (m instanceof BudgetedChatModel b ? b.delegate() : m);
    }

    private ModelRoles roles(ConfigRequest req) {
        ResolvedConfig rc = ConfigResolver.system().resolve(req.withOverride(ConfigRequest.Override.parse("model.backend=openai_compatible"))
                .withOverride(ConfigRequest.Override.parse("model.openai_compatible_base_url=http://127.0.0.1:9/v1")));
        assertTrue(rc.warnings().isEmpty(), "no unknown key: " + rc.warnings());
        FlatConfig flat = rc.flat();
        return Backends.roles(flat, Map.of());
    }

    @Test void theYamlExampleConfiguresLimitsAndHedgingOfBothRoles() throws Exception {
        String s = section();
        int y = s.indexOf("```yaml\n");
        String yaml = s.substring(y + 8, s.indexOf("```", y + 8));
        Path cfg = tmp.resolve("limits.yaml");
        Files.writeString(cfg, yaml);
        ModelRoles roles = roles(ConfigRequest.file(cfg));
        for (ChatModel m : List.of(roles.optimizer(), roles.target())) {
            AbstractChatModel a = model(m);
            assertArrayEquals(new double[] {500, 200000}, a.rateLimit());
            assertEquals(0.9, a.hedgeQuantile());
        }
    }

    @Test void theCommandLineExampleAndTheOutOfRangeValue() throws Exception {
        String s = section();
        String cli = s.substring(s.indexOf("--cfg-options ") + "--cfg-options ".length());
        cli = cli.substring(0, cli.indexOf('`'));
        ModelRoles roles = roles(ConfigRequest.map(Map.of()).withOverridesFirst(ConfigRequest.parseOverrides(List.of(cli.split(" ")))));
        assertEquals(0.9, model(roles.optimizer()).hedgeQuantile());
        assertEquals(500, model(roles.optimizer()).rateLimit()[0]);
        ConfigException e = assertThrows(ConfigException.class,
                () -> roles(ConfigRequest.map(Map.of()).withOverride(ConfigRequest.Override.parse("model.hedge_quantile=1.5"))));
        assertTrue(e.getMessage().contains("hedge_quantile") && e.getMessage().contains("a number in [0, 1) (0 = off, e.g. 0.9)"), e.getMessage());
        String allowed = e.getMessage().substring(e.getMessage().indexOf("a number"));
        assertTrue(s.replaceAll("\\s+", " ").contains(allowed), "the docs quote the message: " + e.getMessage());
    }
}
