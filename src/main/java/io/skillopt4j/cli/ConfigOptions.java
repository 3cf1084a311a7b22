package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlagSpec;
import io.skillopt4j.config.FlagValues;
import io.skillopt4j.config.Flags;
import io.skillopt4j.config.ResolvedConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import java.util.regex.Pattern;

/**
 * Immutable. The shared config options of {@code train}, {@code eval}, {@code demo} and {@code config show}: adds
 * {@code --config}, {@code --cfg-options} and every legacy flag of the {@link Flags} table to a {@link CommandSpec},
 * and turns a {@link ParseResult} into a request. Flag values are checked then ({@link ConfigException}, exit 2).
 */
public final class ConfigOptions {
    private final boolean eval;
    private final boolean configRequired;

    private ConfigOptions(boolean eval, boolean configRequired) {
        this.eval = eval;
        this.configRequired = configRequired;
    }

    /** The options of upstream {@code scripts/train.py} (132 incl. --config and --cfg-options, plus ours). */
    public static ConfigOptions train() { return new ConfigOptions(false, true); }

    /** The config options of upstream {@code scripts/eval_only.py} (--skill and --split belong to the command). */
    public static ConfigOptions eval() { return new ConfigOptions(true, true); }

    /** For commands with a built-in default config. */
    public ConfigOptions configOptional() { return new ConfigOptions(eval, false); }

    /** The picocli command line of the annotated {@code command} with these options added. */
    public CommandLine commandLine(Object command) {
        return new CommandLine(addTo(CommandSpec.forAnnotatedObject(command)));
    }

    public CommandSpec addTo(CommandSpec spec) {
        spec.parser().overwrittenOptionsAllowed(true);
        spec.parser().abbreviatedOptionsAllowed(true);
        spec.addOption(OptionSpec.builder("--config").paramLabel("<yaml>").type(String.class)
                .required(configRequired).description("Path to YAML config file").build());
        spec.addOption(OptionSpec.builder("--cfg-options").paramLabel("<key=value>").arity("1..*")
                .type(List.class).auxiliaryTypes(String.class).parameterConsumer(ConfigOptions::consumeOverrides)
                .description("Override config: section.key=value (e.g. train.batch_size=40)").build());
        for (FlagSpec f : Flags.flags(eval)) {
            List<String> choices = FlagValues.choices(f, eval);
            String label = choices.isEmpty() ? "<" + f.type().name().toLowerCase(Locale.ROOT) + ">"
                    : "{" + String.join(",", choices) + "}";
            OptionSpec.Builder o = OptionSpec.builder("--" + f.flag()).paramLabel(label).type(String.class)
                    .hidden(f.retired()).description(f.help() + " [" + f.path() + "]");
            // SkillOpt4J's hyphenated switches (--force-new) may stand alone; upstream's bool flags take a value
            if (f.type() == FlagSpec.FlagType.BOOL && f.flag().contains("-")) o.arity("0..1").fallbackValue("true");
            spec.addOption(o.build());
        }
        return spec;
    }

    /** argparse's {@code nargs="+"}: take values up to the next option; a repeated option replaces the list. */
    private static void consumeOverrides(Stack<String> args, ArgSpec arg, CommandSpec spec) {
        List<String> values = new ArrayList<>();
        while (!args.isEmpty() && !endsOverrides(args.peek())) values.add(args.pop());
        if (values.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "argument --cfg-options: expected at least one argument");
        }
        arg.setValue(values);
    }

    /** argparse's {@code _negative_number_matcher}: such a word is a value, not an option. */
    private static final Pattern NEGATIVE_NUMBER = Pattern.compile("-\\d+|-\\d*\\.\\d+");

    /** As argparse's {@code _parse_optional}: a lone {@code -}, a negative number and a word with a space are values. */
    static boolean endsOverrides(String next) {
        if (next.equals("--")) return true;
        if (!next.startsWith("-") || next.length() == 1) return false;
        return !NEGATIVE_NUMBER.matcher(next).matches() && next.indexOf(' ') < 0;
    }

    /** The request a parse result stands for (flag text converted with argparse's rules). */
    public ConfigRequest request(ParseResult pr) {
        String config = pr.matchedOptionValue("--config", null);
        // The parameter consumer stores the list directly on the option (last --cfg-options wins).
        OptionSpec cfgOptions = pr.commandSpec().findOption("--cfg-options");
        List<String> items = cfgOptions == null || cfgOptions.getValue() == null ? List.of() : cfgOptions.getValue();
        Map<String, Object> flags = new LinkedHashMap<>();
        io.skillopt4j.config.Checks bad = new io.skillopt4j.config.Checks(); // every bad flag at once, one line each
        for (FlagSpec f : Flags.flags(eval)) {
            String text = pr.matchedOptionValue("--" + f.flag(), null);
            if (text == null) continue;
            try {
                flags.put(f.flag(), FlagValues.parse(f, text, eval));
            } catch (ConfigException e) {
                bad.add(e.getMessage());
            }
        }
        bad.throwIfAny();
        return new ConfigRequest(config == null ? null : Path.of(config), Map.of(),
                ConfigRequest.parseOverrides(items), flags, eval);
    }

    /** Resolves the parse result with the system clock and working directory. */
    public ResolvedConfig resolve(ParseResult pr) { return resolve(pr, ConfigResolver.system()); }

    public ResolvedConfig resolve(ParseResult pr, ConfigResolver resolver) { return resolver.resolve(request(pr)); }
}
