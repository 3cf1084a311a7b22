package io.skillopt4j;

import java.nio.file.Path;

/** Another live process (or another trainer in this JVM) holds the run folder's lock; {@link #holderPid()} names it. */
public final class RunFolderLocked extends RunFolderConflict {
    private final long holderPid;

    public RunFolderLocked(Path folder, long holderPid, String message) {
        super(folder, message);
        this.holderPid = holderPid;
    }

    /** Returns the holder's process id, or -1 when its lock file named none. */
    public long holderPid() { return holderPid; }
}
