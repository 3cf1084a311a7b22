package io.skillopt4j.run;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Test fixtures: run folders under src/test/resources/runs/. */
public final class Fixtures {
    private Fixtures() {}

    /** Returns the fixture run folder {@code name} (python-searchqa, python-searchqa-partial, python-searchqa-killed, exec-traces). */
    public static Path run(String name) {
        URL u = Fixtures.class.getResource("/runs/" + name + "/config.json");
        if (u == null) throw new IllegalStateException("missing fixture " + name);
        try {
            return Path.of(u.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
