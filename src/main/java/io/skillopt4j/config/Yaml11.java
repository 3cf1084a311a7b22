package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

import java.time.LocalDate;
import java.util.regex.Pattern;

/**
 * Thread-safe. Parses YAML as PyYAML's {@code safe_load} does: YAML 1.1 implicit scalars with PyYAML's patterns
 * ({@code yes} is true, {@code 1e3} a string). Dates become {@link LocalDate}; timestamps with a time stay strings.
 */
public final class Yaml11 {
    // PyYAML resolver.py patterns (Resolver.add_implicit_resolver calls).
    static final Pattern BOOL = Pattern.compile(
            "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$");
    static final Pattern FLOAT = Pattern.compile("^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?"
            + "|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
            + "|[-+]?\\.(?:inf|Inf|INF)"
            + "|\\.(?:nan|NaN|NAN))$");
    static final Pattern INT = Pattern.compile("^(?:[-+]?0b[0-1_]+"
            + "|[-+]?0[0-7_]+"
            + "|[-+]?(?:0|[1-9][0-9_]*)"
            + "|[-+]?0x[0-9a-fA-F_]+"
            + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$");
    static final Pattern NULL = Pattern.compile("^(?:~|null|Null|NULL|)$");
    static final Pattern DATE = Pattern.compile("^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$");
    static final Pattern TIMESTAMP = Pattern.compile("^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
            + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?"
            + "(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$");
    static final Pattern MERGE = Pattern.compile("^(?:<<)$");

    private Yaml11() {}

    /** Null for an empty or {@code null} document; bad YAML throws a {@link ConfigException} naming line and column. */
    public static Object parse(String text, String source) {
        LoaderOptions opts = new LoaderOptions();
        opts.setAllowDuplicateKeys(false); // PyYAML keeps the last silently; a duplicate is almost always a mistake
        opts.setMaxAliasesForCollections(200);
        opts.setCodePointLimit(64 * 1024 * 1024);
        Yaml yaml = new Yaml(new PyConstructor(opts), new org.yaml.snakeyaml.representer.Representer(
                new org.yaml.snakeyaml.DumperOptions()), new org.yaml.snakeyaml.DumperOptions(), opts, new PyResolver());
        try {
            return yaml.load(text);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark();
            String where = m == null ? "" : " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1);
            throw new ConfigException(source + ": invalid YAML" + where + ": " + oneLine(e.getProblem()));
        } catch (YAMLException e) {
            throw new ConfigException(source + ": invalid YAML: " + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(String s) {
        return s == null ? "parse error" : s.replaceAll("\\s+", " ").trim();
    }

    // Qualified names: Resolver's own BOOL/FLOAT/INT fields would otherwise shadow ours.
    /** PyYAML's implicit resolvers instead of SnakeYAML's (which differ on floats and merge of 1.2 forms). */
    static final class PyResolver extends Resolver {
        @Override protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, Yaml11.BOOL, "yYnNtTfFoO");
            addImplicitResolver(Tag.FLOAT, Yaml11.FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.INT, Yaml11.INT, "-+0123456789");
            addImplicitResolver(Tag.MERGE, Yaml11.MERGE, "<");
            addImplicitResolver(Tag.NULL, Yaml11.NULL, "~nN\0");
            addImplicitResolver(Tag.NULL, Pattern.compile("^$"), null);
            addImplicitResolver(Tag.TIMESTAMP, Yaml11.DATE, "0123456789");
            addImplicitResolver(Tag.TIMESTAMP, Yaml11.TIMESTAMP, "0123456789");
        }
    }

    /** Safe constructor; dates become LocalDate, full timestamps stay text (JSON-friendly). */
    static final class PyConstructor extends SafeConstructor {
        PyConstructor(LoaderOptions opts) {
            super(opts);
            this.yamlConstructors.put(Tag.TIMESTAMP, new org.yaml.snakeyaml.constructor.AbstractConstruct() {
                @Override public Object construct(Node node) {
                    String v = ((ScalarNode) node).getValue();
                    if (Yaml11.DATE.matcher(v).matches()) {
                        try {
                            return LocalDate.parse(v);
                        } catch (RuntimeException e) {
                            throw new YAMLException("invalid date " + v);
                        }
                    }
                    return v;
                }
            });
        }
    }
}
