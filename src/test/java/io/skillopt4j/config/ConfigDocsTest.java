package io.skillopt4j.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigDocsTest {
    static final Path DOC = Path.of("docs/config.md");

    @Test
    void docsConfigMdIsUpToDateWithTheFlagTable() throws IOException {
        String rendered = ConfigDocs.render();
        if (Boolean.getBoolean("skillopt.updateDocs")) Files.writeString(DOC, rendered);
        assertEquals(rendered, Files.readString(DOC), "docs/config.md is stale: run "
                + "java -cp target/classes io.skillopt4j.config.ConfigDocs docs/config.md "
                + "(or mvn test -Dtest=ConfigDocsTest -Dskillopt.updateDocs=true)");
    }

    @Test
    void everyKeyAndFlagIsDocumented() {
        String doc = ConfigDocs.render();
        for (FlagSpec f : Flags.ALL) {
            assertTrue(doc.contains("`" + f.path() + "`"), f.path());
            if (f.flag() != null) assertTrue(doc.contains("`--" + f.flag() + "`"), f.flag());
        }
        assertTrue(doc.contains("## Differences from upstream"));
        assertTrue(!doc.contains("{{"), "all placeholders filled");
    }
}
