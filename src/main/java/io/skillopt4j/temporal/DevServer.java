package io.skillopt4j.temporal;

import io.temporal.testserver.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedList;

/**
 * Not thread-safe. The Temporal test server (an in-memory Temporal frontend, history and matching service from the
 * {@code temporal-test-server} artifact) bound to a loopback port: for local use and tests, not for production (no
 * persistence: stopping it forgets every workflow). A real cluster is documented in docs/scale-out.md.
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
     * The test server's clock appends a debugging record of every time-skipping lock and unlock (two or more per
     * workflow and activity task) to a list it never trims, and scans that list from its head whenever one of its
     * timers fires (every task timeout it set, later): with time skipping off (as here) the list has no other use,
     * yet it grows for the server's life and its scans take a growing share of the CPU on a long run (docs/scale-out.md,
     * Figures). This swaps it for a list that keeps nothing; the lock counts that drive the clock are kept apart
     * from it. On an SDK whose fields differ this does nothing and the server behaves as shipped.
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
            } finally {
                lock.unlock();
            }
            return true;
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

    /** Whether the server's clock keeps no lock-event list ({@link #forgetLockEvents}); false on an SDK laid out differently. */
    boolean keepsNoLockEvents() { return lean; }

    /** Returns the bound port. */
    public int port() { return port; }

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
