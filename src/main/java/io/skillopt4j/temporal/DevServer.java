package io.skillopt4j.temporal;

import io.temporal.testserver.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Not thread-safe. The Temporal test server (an in-memory Temporal frontend, history and matching service from the
 * {@code temporal-test-server} artifact) bound to a loopback port: for local use and tests, not for production (no
 * persistence: stopping it forgets every workflow). A real cluster is documented in docs/scale-out.md.
 */
public final class DevServer implements AutoCloseable {
    private final TestServer.PortBoundTestServer server;
    private final int port;

    private DevServer(TestServer.PortBoundTestServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts the server on {@code port} (0 = a free port). */
    public static DevServer start(int port) {
        int p = port == 0 ? freePort() : port;
        return new DevServer(TestServer.createPortBoundServer(p), p);
    }

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
