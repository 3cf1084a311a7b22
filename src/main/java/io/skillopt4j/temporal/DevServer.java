package io.skillopt4j.temporal;

import io.temporal.testserver.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedList;

/**
 * Not thread-safe. The in-memory Temporal test server on a loopback port: for local use and tests, not production
 * (stopping it forgets every workflow; a real cluster is in docs/scale-out.md).
 */
public final class DevServer implements AutoCloseable {
    private final TestServer.PortBoundTestServer server;
    private final int port;
    private final boolean lean;

    private DevServer(TestServer.PortBoundTestServer server, int port, boolean lean) {
        this.server = server;
        this.port = port;
        this.lean = lean;
    }

    /** Starts the server on {@code port} (0 = a free port). */
    public static DevServer start(int port) {
        int p = port == 0 ? freePort() : port;
        TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(p);
        return new DevServer(server, p, forgetLockEvents(server));
    }

    /**
     * The test server's clock logs every lock and unlock to a list it never trims but scans whenever a timer fires; with
     * time skipping off it has no use, so this swaps it for one that keeps nothing (on an SDK laid out otherwise, nothing).
     */
    static boolean forgetLockEvents(TestServer.PortBoundTestServer server) {
        try {
            Object starter = field(server.getClass(), "testServicesStarter").get(server);
            Object timer = field(starter.getClass(), "selfAdvancingTimer").get(starter);
            Field events = field(timer.getClass(), "lockEvents");
            java.util.concurrent.locks.Lock lock = (java.util.concurrent.locks.Lock) field(timer.getClass(), "lock").get(timer);
            lock.lock();
            try {
                if (!(events.get(timer) instanceof LinkedList<?>)) return false;
                events.set(timer, new Forgetful());
                return true;
            } finally {
                lock.unlock();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** A list that records nothing: every add is dropped, every remove succeeds (the clock checks that it does). */
    private static final class Forgetful extends LinkedList<Object> {
        private static final long serialVersionUID = 1L;

        @Override public boolean add(Object o) { return true; }
        @Override public boolean remove(Object o) { return true; }
    }

    /** Whether {@link #forgetLockEvents} took effect. */
    boolean keepsNoLockEvents() { return lean; }

    /** Returns the frontend address for {@code engine.address} / {@code --engine-address}. */
    public String address() { return "127.0.0.1:" + port; }

    /** A port free right now (the test server cannot report the one it bound for 0). */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port: " + e.getMessage(), e);
        }
    }

    @Override public void close() { server.close(); }
}
