package io.skillopt4j.backend;

import java.util.Objects;
import java.util.Optional;

/**
 * Immutable. The models a run uses: the optimizer (reflects, merges, ranks, rewrites) and the target (runs
 * tasks with the skill). When the target backend is an exec agent, {@link #targetAgent()} is present and
 * benchmarks run tasks through it; {@link #target()} is then the same agent seen as a chat model.
 * All calls are metered into {@link #usage()}.
 */
public record ModelRoles(ChatModel optimizer, ChatModel target, Optional<ExecAgent> targetAgent, UsageMeter usage) {
    public ModelRoles {
        Objects.requireNonNull(optimizer, "optimizer");
        Objects.requireNonNull(target, "target");
        targetAgent = targetAgent == null ? Optional.empty() : targetAgent;
        usage = usage == null ? new UsageMeter() : usage;
    }

    /** Returns roles with two chat models and a fresh meter. */
    public static ModelRoles of(ChatModel optimizer, ChatModel target) {
        return new ModelRoles(optimizer, target, Optional.empty(), new UsageMeter());
    }
}
