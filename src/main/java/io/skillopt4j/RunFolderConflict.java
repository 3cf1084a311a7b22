package io.skillopt4j;

import java.nio.file.Path;

/**
 * The command conflicts with its run folder: another process owns it ({@link RunFolderLocked}), or a resume would
 * change the stored run. Nothing was written; a user mistake like a bad config (the CLI prints it and exits 2).
 */
public class RunFolderConflict extends ConfigException {
    private final Path folder;

    public RunFolderConflict(Path folder, String message) {
        super(message);
        this.folder = folder;
    }

    public Path folder() { return folder; }
}
