package io.skillopt4j.backend.internal;

import okhttp3.Headers;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe: one exchange at a time, by the thread that took it; the pool itself is thread-safe. One HTTP/1.1
 * keep-alive socket of {@link PlainHttp}, with the reply parser. Idle sockets are kept per host and port, at most
 * five for five minutes (OkHttp's pool defaults), most recently used first; an expired one is closed when met or by
 * the sweep a release runs at most once a second, so no thread is needed to evict them.
 */
final class PlainConnection {
    private static final int MAX_IDLE = 5;
    private static final long KEEP_ALIVE_NANOS = TimeUnit.MINUTES.toNanos(5);
    private static final int MAX_LINE = 64 * 1024;
    private static final ConcurrentHashMap<String, ConcurrentLinkedDeque<PlainConnection>> IDLE = new ConcurrentHashMap<>();

    /** A reply read whole; {@code headers} as sent (names as the server spelled them). */
    record Reply(int code, String message, Headers headers, byte[] body, boolean http10, boolean keepAlive) {}

    private final String key;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buf = new byte[8192];
    private int pos;
    private int lim;
    private boolean answered;
    private long idleSince;

    private PlainConnection(String key, Socket socket) throws IOException {
        this.key = key;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    private static String key(String host, int port) { return host + ":" + port; }

    /** An idle pooled socket to {@code host:port}, or null. */
    static PlainConnection take(String host, int port) {
        ConcurrentLinkedDeque<PlainConnection> idle = IDLE.get(key(host, port));
        if (idle == null) return null;
        for (PlainConnection c; (c = idle.pollFirst()) != null; ) {
            if (System.nanoTime() - c.idleSince < KEEP_ALIVE_NANOS && !c.socket.isClosed()) {
                c.answered = false;
                return c;
            }
            c.close();
        }
        return null;
    }

    /** A new socket to {@code host:port}, trying each of its addresses in turn (localhost: ::1, then 127.0.0.1). */
    static PlainConnection open(String host, int port, int connectMs) throws IOException {
        IOException last = null;
        for (InetAddress a : InetAddress.getAllByName(host)) {
            Socket s = new Socket(Proxy.NO_PROXY);
            try {
                s.setTcpNoDelay(true); // see NoDelaySockets
                s.setSendBufferSize(2 * UNGUARDED);
                s.connect(new InetSocketAddress(a, port), connectMs);
                return new PlainConnection(key(host, port), s);
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
            }
        }
        throw last != null ? last : new UnknownHostException(host);
    }

    /** Closes the pooled sockets to {@code host:port} (a stale one found: the server restarted or dropped them all). */
    static void evict(String host, int port) {
        ConcurrentLinkedDeque<PlainConnection> idle = IDLE.get(key(host, port));
        if (idle != null) closeAll(idle);
    }

    /** Closes every pooled socket (tests, and servers that are gone). */
    static void evictAll() { IDLE.values().forEach(PlainConnection::closeAll); }

    private static void closeAll(ConcurrentLinkedDeque<PlainConnection> idle) {
        for (PlainConnection c; (c = idle.pollFirst()) != null; ) c.close();
    }

    /** True once a byte of the reply has arrived: a failure after that is the server's, not a stale socket's. */
    boolean answered() { return answered; }

    void timeout(int readMs) throws IOException { socket.setSoTimeout(Math.max(0, readMs)); }

    /**
     * Sends the request, in one write when it fits one buffer's worth of copying. A blocking socket write has no timeout
     * of its own, so a request larger than a socket buffer is guarded: if it is still being written after
     * {@code writeMs} (a server that stopped reading), the socket is closed and the write fails as a timeout.
     */
    void send(byte[] head, byte[] body, int writeMs) throws IOException {
        java.util.concurrent.ScheduledFuture<?> guard = null;
        if (writeMs > 0 && head.length + body.length > UNGUARDED) {
            guard = Watchdog.TIMER.schedule(() -> { writeTimedOut = true; close(); }, writeMs, TimeUnit.MILLISECONDS);
        }
        try {
            if (body.length <= 256 * 1024) {
                byte[] all = new byte[head.length + body.length];
                System.arraycopy(head, 0, all, 0, head.length);
                System.arraycopy(body, 0, all, head.length, body.length);
                out.write(all);
            } else {
                out.write(head);
                out.write(body);
            }
            out.flush();
        } catch (IOException e) {
            if (guard != null) guard.cancel(false);
            if (writeTimedOut) throw writeTimeout(writeMs);
            throw e;
        }
        // a guard that could no longer be cancelled fired as the write ended: the socket is closed, so this is the timeout
        if (guard != null && !guard.cancel(false)) throw writeTimeout(writeMs);
    }

    private static java.net.SocketTimeoutException writeTimeout(int writeMs) {
        return new java.net.SocketTimeoutException("write timed out after " + writeMs + " ms (the server stopped reading)");
    }

    // What a socket takes without blocking even when the server reads nothing: open() asks for a send buffer of twice
    // this (Linux grants up to 416 KB to anyone). Smaller requests, every model call we have seen (analyst prompts are
    // 30-50 KB), need no guard: a timer per call cost ~0.3 ms of per-call time in a cold run (6 pairs).
    static final int UNGUARDED = 128 * 1024;
    private volatile boolean writeTimedOut;

    /** One daemon timer thread for the guarded writes, started on the first one. */
    private static final class Watchdog {
        static final java.util.concurrent.ScheduledThreadPoolExecutor TIMER = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "plain-http-watchdog");
            t.setDaemon(true);
            return t;
        });
        static { TIMER.setRemoveOnCancelPolicy(true); }
    }

    /** Reads one reply, skipping interim (1xx) ones. */
    Reply read() throws IOException {
        while (true) {
            String status = line();
            if (!status.startsWith("HTTP/1.") || status.length() < 12 || status.charAt(8) != ' ')
                throw new IOException("unexpected status line: " + HttpErrors.oneLine(status.length() > 80 ? status.substring(0, 80) : status));
            boolean http10 = status.charAt(7) == '0';
            int code;
            try {
                code = Integer.parseInt(status.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IOException("unexpected status line: " + HttpErrors.oneLine(status), e);
            }
            String message = status.length() > 13 ? status.substring(13) : "";
            Headers.Builder hb = new Headers.Builder();
            for (String h; !(h = line()).isEmpty(); ) {
                int colon = h.indexOf(':');
                if (colon <= 0) continue; // not a header: skipped, as lenient clients do
                try {
                    hb.add(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
                } catch (IllegalArgumentException e) {
                    // a header with characters OkHttp's types refuse (non-ASCII): nothing here reads such headers
                }
            }
            Headers headers = hb.build();
            if (code >= 100 && code < 200) continue; // 100 Continue and friends: the real reply follows
            String connection = headers.get("Connection");
            boolean keepAlive = http10 ? "keep-alive".equalsIgnoreCase(connection) : !"close".equalsIgnoreCase(connection);
            byte[] body;
            String te = headers.get("Transfer-Encoding");
            String length = headers.get("Content-Length");
            if (code == 204 || code == 304) {
                body = new byte[0];
            } else if (te != null && te.toLowerCase(java.util.Locale.ROOT).contains("chunked")) {
                body = chunked();
            } else if (length != null) {
                long n;
                try {
                    n = Long.parseLong(length.trim());
                } catch (NumberFormatException e) {
                    throw new IOException("invalid Content-Length: " + HttpErrors.oneLine(length), e);
                }
                if (n < 0 || n > Integer.MAX_VALUE - 16) throw new IOException("invalid Content-Length: " + n);
                body = bytes((int) n);
            } else {
                body = toEnd();
                keepAlive = false;
            }
            return new Reply(code, message, headers, body, http10, keepAlive && pos == lim);
        }
    }

    /**
     * Back to the pool for the next exchange to {@code host:port}. At most once a second it also closes the sockets
     * to any address that have been idle too long: a notebook that starts a simulator per run (a new port each time)
     * would otherwise keep every old server's last sockets open for as long as the JVM lives.
     */
    void release() {
        long now = System.nanoTime();
        idleSince = now;
        ConcurrentLinkedDeque<PlainConnection> idle = IDLE.computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>());
        idle.offerFirst(this);
        if (idle.size() > MAX_IDLE) {
            PlainConnection oldest = idle.pollLast();
            if (oldest != null) oldest.close();
        }
        if (now - lastSweep > SWEEP_NANOS) {
            lastSweep = now;
            sweep(now);
        }
    }

    private static final long SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static volatile long lastSweep = System.nanoTime();

    // the oldest sockets sit at the tail of each queue (an emptied queue stays: a few bytes per address ever used)
    static void sweep(long now) {
        IDLE.values().forEach(q -> {
            for (PlainConnection c; (c = q.peekLast()) != null && now - c.idleSince >= KEEP_ALIVE_NANOS; ) {
                if (q.removeLastOccurrence(c)) c.close();
            }
        });
    }

    /** Idle sockets now pooled for {@code host:port} (tests). */
    static int idleCount(String host, int port) {
        ConcurrentLinkedDeque<PlainConnection> q = IDLE.get(key(host, port));
        return q == null ? 0 : q.size();
    }

    void close() { closeQuietly(socket); }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) return false;
        answered = true;
        pos = 0;
        lim = n;
        return true;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            if (pos == lim && !fill()) throw new EOFException("unexpected end of stream (" + (answered ? "reply cut off" : "no reply") + ")");
            int start = pos;
            while (pos < lim && buf[pos] != '\n') pos++;
            sb.append(new String(buf, start, pos - start, java.nio.charset.StandardCharsets.ISO_8859_1));
            if (sb.length() > MAX_LINE) throw new IOException("reply header line longer than " + MAX_LINE + " bytes");
            if (pos < lim) {
                pos++; // the '\n'
                int end = sb.length();
                if (end > 0 && sb.charAt(end - 1) == '\r') sb.setLength(end - 1);
                return sb.toString();
            }
        }
    }

    private byte[] bytes(int n) throws IOException {
        byte[] b = new byte[n];
        int got = Math.min(n, lim - pos);
        System.arraycopy(buf, pos, b, 0, got);
        pos += got;
        while (got < n) {
            int r = in.read(b, got, n - got);
            if (r <= 0) throw new EOFException("unexpected end of stream (reply body cut off at " + got + " of " + n + " bytes)");
            answered = true;
            got += r;
        }
        return b;
    }

    private byte[] chunked() throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        while (true) {
            String size = line();
            int semi = size.indexOf(';');
            int n;
            try {
                n = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("invalid chunk size: " + HttpErrors.oneLine(size), e);
            }
            if (n < 0) throw new IOException("invalid chunk size: " + size);
            if (n == 0) {
                while (!line().isEmpty()) { /* trailers: not used */ }
                return all.toByteArray();
            }
            all.write(bytes(n));
            if (!line().isEmpty()) throw new IOException("chunk not followed by CRLF");
        }
    }

    private byte[] toEnd() throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        all.write(buf, pos, lim - pos);
        pos = lim;
        byte[] b = new byte[8192];
        for (int r; (r = in.read(b)) > 0; ) all.write(b, 0, r);
        return all.toByteArray();
    }
}
