package io.skillopt4j.backend;

/**
 * Thread-safe. An agent CLI (Codex, Claude Code, Cursor, Copilot) that works in a workspace and answers a
 * task with the skill installed. Implementations build the CLI's exact command line, enforce the timeout
 * by killing the whole process tree, parse its event stream and persist traces.
 */
public interface ExecAgent {
    /**
     * Runs one task. An agent that answered nothing returns {@code ok = false}; a failed call (the provider's error
     * as the CLI reported it, a timeout, a CLI that cannot run) throws {@link io.skillopt4j.BackendException}
     * (retriable or not) after its retries, so it is an errored outcome and never an answer.
     */
    ExecResult run(ExecTask task);

    /** Returns the SkillOpt backend name, e.g. {@code claude_code_exec}. */
    String backend();

    /**
     * Checks, before any rollout, that this CLI can take what a benchmark's tasks need (image inputs, readable data
     * directories); throws a one-line {@link io.skillopt4j.ConfigException} naming what is missing. The default accepts both.
     */
    default void requireInputs(boolean images, boolean dataDirs) {}

    /** Returns the model name passed to the CLI ("" for the CLI's default). */
    default String model() { return ""; }
}
