package io.skillopt4j.backend;

/** Thread-safe. An agent CLI (Codex, Claude Code, Cursor, Copilot) that answers a task in a workspace with the skill. */
public interface ExecAgent {
    /**
     * Runs one task. An agent that answered nothing returns {@code ok = false}; a failed call (the provider's error
     * as the CLI reported it, a timeout, a CLI that cannot run) throws {@link io.skillopt4j.BackendException}
     * (retriable or not) after its retries, so it is an errored outcome and never an answer.
     */
    ExecResult run(ExecTask task);

    /** The SkillOpt backend name, e.g. {@code claude_code_exec}. */
    String backend();

    /** Throws a one-line {@link io.skillopt4j.ConfigException}, before any rollout, when this CLI cannot take what a
     *  benchmark's tasks need. */
    default void requireInputs(boolean images, boolean dataDirs) {}

    /** "" for the CLI's default. */
    default String model() { return ""; }
}
