package io.skillopt4j.backend.internal;

import javax.net.SocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;

/**
 * Thread-safe. Sockets with TCP_NODELAY, which OkHttp does not set: with Nagle's algorithm the later writes of a
 * large request wait for a delayed ACK. TLS sockets are layered on these, so HTTPS gets it too.
 */
final class NoDelaySockets extends SocketFactory {
    static final NoDelaySockets INSTANCE = new NoDelaySockets();
    private final SocketFactory plain = SocketFactory.getDefault();

    private NoDelaySockets() {}

    /** The one OkHttp uses: a channel's socket, so interrupting the calling thread closes it and a call waiting for
     *  its reply ends at once (a plain socket's read ignores interrupts until its timeout). */
    @Override public Socket createSocket() throws IOException {
        return noDelay(java.nio.channels.SocketChannel.open().socket());
    }

    @Override public Socket createSocket(String host, int port) throws IOException {
        return noDelay(plain.createSocket(host, port));
    }

    @Override public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
        return noDelay(plain.createSocket(host, port, local, localPort));
    }

    @Override public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(plain.createSocket(host, port));
    }

    @Override public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort) throws IOException {
        return noDelay(plain.createSocket(host, port, local, localPort));
    }

    private static Socket noDelay(Socket s) throws SocketException {
        s.setTcpNoDelay(true);
        return s;
    }
}
