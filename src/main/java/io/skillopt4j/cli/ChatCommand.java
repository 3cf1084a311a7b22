package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code skillopt chat}: sends one call through the backend a config resolves for a role and prints the
 * reply and usage, the way a user checks keys and endpoints. Not thread-safe (picocli fills it).
 */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = "Send one prompt through the optimizer or target backend and print the reply and usage.")
final class ChatCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "YAML config (structured model: section or flat keys).")
    Path config;

    @Option(names = "--role", defaultValue = "optimizer", description = "optimizer or target (default: ${DEFAULT-VALUE}).")
    String role;

    @Option(names = "--prompt", required = true, description = "The user message.")
    String prompt;

    @Option(names = "--system", description = "An optional system message.")
    String system;

    @Option(names = "--backend", description = "Override the role's backend (e.g. openai_compatible).")
    String backend;

    @Option(names = "--model", description = "Override the role's model.")
    String model;

    @Option(names = "--base-url", description = "Base URL for openai_compatible.")
    String baseUrl;

    @Option(names = "--timeout", defaultValue = "120", description = "Seconds per attempt (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Override public Integer call() {
        if (!role.equals("optimizer") && !role.equals("target")) throw ConfigException.badValue("", "--role", role, "optimizer or target");
        FlatConfig cfg = config == null ? FlatConfig.empty() : load(config);
        Map<String, Object> over = new LinkedHashMap<>();
        if (backend != null) over.put(role + "_backend", backend);
        if (model != null) over.put(role + "_model", model);
        if (baseUrl != null) over.put(role + "_openai_compatible_base_url", baseUrl);
        cfg = cfg.withAll(over);
        String b = cfg.string(role + "_backend", "openai_chat");
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

    /** Reads YAML; a structured {@code model:} section is flattened the way upstream names its flat keys. */
    static FlatConfig load(Path file) {
        Object raw;
        try {
            raw = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read config: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ConfigException(file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
        if (raw == null) return FlatConfig.empty();
        if (!(raw instanceof Map<?, ?> map)) throw new ConfigException(file + ": top level must be a mapping");
        Map<String, Object> flat = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (e.getValue() instanceof Map<?, ?> section && !k.equals("price_table")) {
                for (Map.Entry<?, ?> s : section.entrySet()) {
                    String sk = String.valueOf(s.getKey());
                    String name = k.equals("model") ? switch (sk) {
                        case "optimizer" -> "optimizer_model";
                        case "target" -> "target_model";
                        case "backend" -> "model_backend";
                        default -> sk;
                    } : sk;
                    flat.put(name, s.getValue());
                }
            } else {
                flat.put(k, e.getValue());
            }
        }
        return FlatConfig.of(flat);
    }
}
