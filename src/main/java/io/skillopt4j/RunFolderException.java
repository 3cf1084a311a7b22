package io.skillopt4j;

/** A run folder cannot be read or written: missing, not a run, or holding a malformed file. */
public class RunFolderException extends SkillOptException {
    public RunFolderException(String message) { super(message); }
}
