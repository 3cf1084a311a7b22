package io.skillopt4j.train;

import io.skillopt4j.run.RunLock;

import java.nio.file.Path;

/** A process that takes a run folder's lock, says so on stdout and waits to be killed: {@code LockHolder <dir>}. */
public final class LockHolder {
    private LockHolder() {}

    public static void main(String[] args) throws Exception {
        RunLock lock = RunLock.acquire(Path.of(args[0]), "lock-holder");
        System.out.println("locked " + lock.root());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
