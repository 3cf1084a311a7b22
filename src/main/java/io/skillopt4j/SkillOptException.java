package io.skillopt4j;

/**
 * Root of every exception SkillOpt4J throws on purpose. Unchecked, so notebook cells and stream
 * pipelines never need a try/catch. Subclasses tell who must act: {@link ConfigException} (the user),
 * {@link BackendException} (a model provider), {@link RunFolderException} (the run folder on disk).
 */
public class SkillOptException extends RuntimeException {
    public SkillOptException(String message) { super(message); }
    public SkillOptException(String message, Throwable cause) { super(message, cause); }
}
