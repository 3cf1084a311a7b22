package io.skillopt4j;

import java.nio.file.Path;

/**
 * The command conflicts with what its run folder already holds: another process owns it ({@link RunFolderLocked}),
 * or a resume would change the plan or the results of the stored run. Nothing in the folder was written. A user
 * mistake like a bad config (the CLI prints the one line and exits 2); the message names the folder and what differs.
 */
public class RunFolderConflict extends ConfigException {
    private final Path folder;

    public RunFolderConflict(Path folder, String message) {
        super(message);
        this.folder = folder;
    }

    /** Returns the run folder. */
    public Path folder() { return folder; }
}
