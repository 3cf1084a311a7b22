package io.skillopt4j.env;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.config.FlatConfig;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** Test helpers: fixture paths, a scripted chat model that records requests, contexts and whole-split batches. */
public final class EnvFixtures {
    private EnvFixtures() {}

    /** Returns the folder of a test resource under {@code /env/}. */
    public static Path resource(String rel) {
        try {
            return Path.of(EnvFixtures.class.getResource("/env/" + rel).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A chat model answering each request with {@code reply(request)}; records every request. */
    public static final class Scripted implements ChatModel {
        public final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        private final Function<ChatRequest, String> reply;

        public Scripted(Function<ChatRequest, String> reply) { this.reply = reply; }

        @Override public ChatResponse chat(ChatRequest request) {
            requests.add(request);
            return ChatResponse.of(reply.apply(request), Usage.ZERO);
        }

        @Override public String model() { return "scripted"; }
    }

    public static BenchmarkContext context(Map<String, ?> cfg, ChatModel target, Path outRoot) {
        return new BenchmarkContext(FlatConfig.of(cfg), ModelRoles.of(target, target), outRoot);
    }

    public static BenchmarkContext context(Map<String, ?> cfg, ChatModel optimizer, ChatModel target, Path outRoot) {
        return new BenchmarkContext(FlatConfig.of(cfg), ModelRoles.of(optimizer, target), outRoot);
    }

    /** Every item of train, val and test, as one eval batch. */
    public static BatchSpec all(Benchmark b) {
        List<Item> items = new ArrayList<>(b.data().split("train"));
        items.addAll(b.data().split("val"));
        items.addAll(b.data().split("test"));
        return new BatchSpec("eval", "all", 42, items);
    }
}
