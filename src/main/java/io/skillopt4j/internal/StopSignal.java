package io.skillopt4j.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Stateless. How a serving process ({@code sim serve}, {@code worker}, {@code engine dev-server}) waits to be stopped. */
public final class StopSignal {
    private StopSignal() {}

    /** Blocks until the JVM is asked to stop (Ctrl-C, SIGTERM) or, when {@code serveMs > 0}, that many ms passed. */
    public static void await(long serveMs) throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "skillopt-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        if (serveMs > 0) stop.await(serveMs, TimeUnit.MILLISECONDS); else stop.await();
        try { Runtime.getRuntime().removeShutdownHook(hook); } catch (IllegalStateException shuttingDown) { /* fine */ }
    }
}
