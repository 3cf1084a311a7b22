package io.skillopt4j.notebook;

import java.util.Objects;

/**
 * Immutable. A fragment of HTML that notebooks show rendered ({@code text/html}); plain JShell prints
 * the source. {@code display(Html.of("<b>hi</b>"))}.
 */
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
