package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.Checks;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Suggest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;

/** Not thread-safe (picocli fills it). {@code skillopt chat}: one call through a role's backend, to check keys. */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = "Send one prompt through the optimizer or target backend and print the reply and usage.")
final class ChatCommand extends CliCommand {
    @Option(names = "--role", defaultValue = "optimizer", description = "optimizer or target (default: ${DEFAULT-VALUE}).")
    String role;

    @Option(names = "--prompt", required = true, description = "The user message.")
    String prompt;

    @Option(names = "--system", description = "An optional system message.")
    String system;

    @Option(names = "--base-url", description = "Base URL for openai_compatible (else the config or OPENAI_COMPATIBLE_BASE_URL).")
    String baseUrl;

    @Option(names = "--timeout", defaultValue = "120", description = "Seconds per attempt (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    static CommandLine commandLine() { return ConfigOptions.train().configOptional().commandLine(new ChatCommand()); }

    @Override public Integer call() {
        // every static problem at once, before a backend is built
        Checks checks = new Checks().positive("--timeout", timeoutSeconds).url("--base-url", baseUrl);
        if (!role.equals("optimizer") && !role.equals("target"))
            checks.add("--role must be optimizer or target, got \"" + role + "\"" + Suggest.didYouMean(role, List.of("optimizer", "target")));
        List<String> problems = new java.util.ArrayList<>();
        ConfigRequest req;
        try {
            req = ConfigOptions.train().configOptional().request(spec.commandLine().getParseResult());
        } catch (ConfigException e) {
            throw new ConfigException(String.join("\n", checks.add(e.getMessage()).problems()));
        }
        io.skillopt4j.config.ResolvedConfig resolved = ConfigResolver.system().check(req, problems);
        FlatConfig cfg = resolved.flat();
        for (io.skillopt4j.config.ConfigWarning w : resolved.warnings()) // as train: an unknown key or value is an error
            if (w.category().equals(io.skillopt4j.config.ConfigWarning.USER)) checks.add(w.message());
        checks.addAll(problems).throwIfAny();
        if (baseUrl != null) cfg = cfg.with(role + "_openai_compatible_base_url", baseUrl);
        String b = io.skillopt4j.config.Setting.string(role + "_backend").in(cfg).orElse("");
        UsageMeter meter = new UsageMeter();
        ChatModel m = Backends.chat(b.isBlank() ? "openai_chat" : b, cfg, role, System.getenv(), meter);
        ChatRequest.Builder rb = ChatRequest.builder().stage("chat").retries(2).timeout(java.time.Duration.ofMillis((long) (timeoutSeconds * 1000)));
        if (system != null) rb.system(system);
        ChatResponse r = m.chat(rb.user(prompt).build());
        PrintWriter out = spec.commandLine().getOut();
        out.println(r.text());
        if (!r.toolCalls().isEmpty()) out.println("tool calls: " + r.toolCalls());
        out.printf("usage: backend=%s model=%s prompt=%d completion=%d total=%d cached=%d latency_ms=%d%n", m.backend(),
                r.model().isEmpty() ? m.model() : r.model(), r.usage().promptTokens(), r.usage().completionTokens(),
                r.usage().totalTokens(), r.usage().cachedTokens(), r.latency().toMillis());
        out.flush();
        return 0;
    }
}
