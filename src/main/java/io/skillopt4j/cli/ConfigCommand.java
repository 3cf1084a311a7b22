package io.skillopt4j.cli;

import io.skillopt4j.config.ConfigWarning;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.internal.Json;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Not thread-safe (picocli command object). {@code skillopt config show}: prints the resolved flat config. */
@Command(name = "config", description = "Inspect configurations.")
public final class ConfigCommand extends GroupCommand {
    /** With its {@code show} subcommand, options generated from the table. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ConfigCommand());
        cl.addSubcommand("show", ConfigOptions.train().commandLine(new Show()));
        return cl;
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print the final flat config as JSON (sorted keys, secrets masked); warnings go to stderr.")
    static final class Show extends CliCommand {
        @Override public Integer call() {
            ResolvedConfig cfg = ConfigOptions.train().resolve(spec.commandLine().getParseResult());
            PrintWriter err = spec.commandLine().getErr();
            // as train: an unknown key or value is an error; retired options and credentials only warn
            List<String> userErrors = cfg.warnings().stream().filter(w -> w.category().equals(ConfigWarning.USER)).map(ConfigWarning::message).toList();
            if (!userErrors.isEmpty()) throw new io.skillopt4j.ConfigException(String.join("\n", userErrors));
            for (ConfigWarning w : cfg.warnings()) err.println(w);
            err.flush();
            PrintWriter out = spec.commandLine().getOut();
            out.println(Json.pretty(jsonSafe(cfg.redactedSorted())));
            out.flush();
            return 0;
        }
    }

    /** Converts values Jackson cannot write as JSON (dates from YAML) to their text. */
    static Object jsonSafe(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) out.put(String.valueOf(e.getKey()), jsonSafe(e.getValue()));
            return out;
        }
        if (v instanceof List<?> l) return l.stream().map(ConfigCommand::jsonSafe).toList();
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) return v;
        return v.toString();
    }
}
