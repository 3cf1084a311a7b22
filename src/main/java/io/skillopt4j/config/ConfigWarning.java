package io.skillopt4j.config;

/**
 * Immutable. A non-fatal remark about the configuration. Categories are Python's warning classes, as upstream warns;
 * {@code UserWarning} for SkillOpt4J's unknown-key checks.
 *
 * @param message one line, never containing a secret value
 */
public record ConfigWarning(String category, String message) {
    public static final String FUTURE = "FutureWarning";
    public static final String DEPRECATION = "DeprecationWarning";
    public static final String USER = "UserWarning";

    /** True when the run would differ from what was asked (an ignored key or value, a retired option). */
    public boolean changesBehaviour() { return category.equals(USER) || category.equals(FUTURE); }

    @Override public String toString() { return "WARNING " + category + ": " + message; }
}
