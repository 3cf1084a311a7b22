package io.skillopt4j.notebook;

import java.util.Objects;

/** Immutable. A fragment of HTML that notebooks show rendered; plain JShell prints the source. */
public record Html(String html) {
    public Html {
        Objects.requireNonNull(html, "html");
    }

    public static Html of(String html) {
        return new Html(html);
    }

    @Override public String toString() {
        return html;
    }
}
