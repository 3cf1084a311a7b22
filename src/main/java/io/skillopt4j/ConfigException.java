package io.skillopt4j;

/**
 * A mistake in user input: a YAML file, a flag, a {@code --cfg-options} entry, a data file. The message is
 * one line naming where, the bad value and what is allowed; the CLI prints it and exits with code 2.
 */
public class ConfigException extends SkillOptException {
    public ConfigException(String message) { super(message); }
    public ConfigException(String message, Throwable cause) { super(message, cause); }

    /** Returns an exception for {@code key} holding {@code value}, where {@code allowed} says what would be fine. */
    public static ConfigException badValue(String source, String key, Object value, String allowed) {
        String where = source == null || source.isEmpty() ? "" : source + ": ";
        String got = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return new ConfigException(where + key + " must be " + allowed + ", got " + got);
    }
}
