package io.skillopt4j.notebook;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Issue #16 item 3: in a cell, forgetting baseUrl is a ConfigException before any model call, not a trip to api.openai.com. */
class NoDefaultProviderTest {
    @Test void theDemoConfigWithoutABaseUrlIsAConfigErrorBeforeAnyCall(@TempDir Path dir) {
        SkillOpt s = SkillOpt.config("configs/demo/default.yaml").environment(Map.of()).outRoot(dir.resolve("run"));
        ConfigException e = assertThrows(ConfigException.class, s::trainer);
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("model.openai_compatible_base_url is not set"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("run/logs/transport.log")));
        ConfigException t = assertThrows(ConfigException.class, s::train);
        assertEquals(e.getMessage(), t.getMessage());
    }

    @Test void namingTheServerIsEnough(@TempDir Path dir) {
        assertNotNull(SkillOpt.config("configs/demo/default.yaml").environment(Map.of()).baseUrl("http://127.0.0.1:9/v1")
                .outRoot(dir.resolve("run")).trainer());
    }
}
