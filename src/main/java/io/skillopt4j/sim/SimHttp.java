package io.skillopt4j.sim;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe. The simulator's own minimal HTTP/1.1 server on a loopback {@link ServerSocket}: one daemon thread
 * per connection, keep-alive, {@code Content-Length} and chunked request bodies, one write per response.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: {@code skillopt bench train} measures the framework's
 * overhead against the simulator, so the simulator's own cost must be small. On a 2-core VM, with the project's
 * OkHttp backend as client, re-measured with the JDK server's {@code TCP_NODELAY} on and its own executor
 * ({@code -Dskillopt.sim.http=jdk}): a zero-latency call with one worker took ~0.96 ms of wall against ~0.71 ms here,
 * every run (docs/simulator.md, "HTTP layer"). Malformed
 * HTTP (bad request line, headers over 64 KB, bad {@code Content-Length} or chunk) gets a 400 and the
 * connection is closed; nothing escapes a connection thread.
 */
final class SimHttp implements SimHttpServer {
    static final int MAX_HEAD = 64 * 1024;
    static final int MAX_BODY = 64 * 1024 * 1024;
    private static final int IDLE_MS = 600_000; // longer than OkHttp's 5-minute pool keep-alive: clients close first

    private final ServerSocket server;
    private final Handler handler;
    private final Semaphore slots;
    private final ExecutorService pool;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile boolean closed;

    SimHttp(int port, int maxConcurrent, Handler handler) throws IOException {
        this.handler = handler;
        this.slots = new Semaphore(maxConcurrent);
        ServerSocket ss = new ServerSocket();
        try {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        } catch (IOException e) {
            ss.close();
            throw e;
        }
        this.server = ss;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> daemon(r, "skillopt-sim-" + n.incrementAndGet()));
        this.acceptor = daemon(this::acceptLoop, "skillopt-sim-accept-" + ss.getLocalPort());
        acceptor.start();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override public int port() { return server.getLocalPort(); }

    @Override public long pause(long ms) { return SimHttpServer.pause(closing, ms); }

    /** Stops accepting, drops every open connection (also held ones) and waits briefly for their threads. */
    @Override public void close() {
        if (closed) return;
        closed = true;
        closing.countDown();
        closeQuietly(server);
        for (Socket s : open) closeQuietly(s);
        pool.shutdownNow();
        try {
            acceptor.join(1000);
            pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (closed) return;
                pause(10); // e.g. out of file descriptors: don't spin
                continue;
            }
            open.add(s);
            if (closed) { closeQuietly(s); return; }
            try {
                pool.execute(() -> serve(s));
            } catch (RejectedExecutionException e) {
                closeQuietly(s);
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(IDLE_MS);
            In in = new In(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (!closed) {
                SocketExchange ex;
                try {
                    ex = read(in, out);
                } catch (BadRequest e) {
                    byte[] json = SimProtocol.error(e.getMessage(), "invalid_request_error").getBytes(StandardCharsets.UTF_8);
                    out.write(response(e.status, json, json.length, Map.of(), true));
                    out.flush();
                    lingerClose(s);
                    return;
                }
                if (ex == null) return;
                try { slots.acquire(); } catch (InterruptedException closing) { return; }
                try {
                    handler.handle(ex);
                } catch (RuntimeException e) {
                    if (ex.state == 0) ex.respond(500, SimProtocol.error("simulator error: " + e, "server_error"), Map.of());
                    return;
                } finally {
                    slots.release();
                }
                if (ex.state != 1 || !ex.keepAlive) return;
            }
        } catch (IOException | RuntimeException e) {
            // client went away, idle timeout, or the server is closing: nothing to answer
        } finally {
            open.remove(s);
        }
    }

    /** After an error reply: send FIN, drain what the client still sends (bounded), so it reads the reply, not a reset. */
    private static void lingerClose(Socket s) {
        try {
            s.shutdownOutput();
            s.setSoTimeout(200);
            InputStream is = s.getInputStream();
            byte[] sink = new byte[8192];
            long deadline = System.nanoTime() + 1_000_000_000L;
            for (int total = 0; total < (1 << 20) && System.nanoTime() < deadline; ) {
                int n = is.read(sink);
                if (n < 0) break;
                total += n;
            }
        } catch (IOException ignored) {
            // timed out or reset: close anyway
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try { c.close(); } catch (Exception ignored) { /* closing */ }
    }

    /** Reads one request (head and body); null at a clean end of stream between requests. */
    private static SocketExchange read(In in, OutputStream out) throws IOException {
        int[] budget = {MAX_HEAD};
        String line;
        do {
            line = in.line(budget, true);
            if (line == null) return null;
        } while (line.isEmpty()); // tolerate stray CRLFs between requests (RFC 9112 §2.2)
        int sp1 = line.indexOf(' '), sp2 = line.lastIndexOf(' ');
        if (sp1 <= 0 || sp2 <= sp1 + 1 || line.indexOf(' ', sp1 + 1) != sp2) throw new BadRequest(400, "malformed request line");
        String method = line.substring(0, sp1), target = line.substring(sp1 + 1, sp2), version = line.substring(sp2 + 1);
        for (int i = 0; i < method.length(); i++) if (!token(method.charAt(i))) throw new BadRequest(400, "malformed request line");
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) throw new BadRequest(400, "unsupported HTTP version: " + version);
        Map<String, String> headers = new HashMap<>();
        while (!(line = in.line(budget, false)).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0) throw new BadRequest(400, "malformed header line");
            String name = line.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
            for (int i = 0; i < name.length(); i++) if (!token(name.charAt(i))) throw new BadRequest(400, "malformed header name");
            String value = line.substring(colon + 1).trim();
            String old = headers.putIfAbsent(name, value);
            if (old != null && name.equals("content-length")) {
                if (!old.equals(value)) throw new BadRequest(400, "conflicting Content-Length headers");
            } else if (old != null) {
                headers.put(name, old + ", " + value);
            }
        }
        long start = System.nanoTime();
        boolean http10 = version.equals("HTTP/1.0");
        boolean keepAlive = !http10 && !hasToken(headers.get("connection"), "close");
        String te = headers.get("transfer-encoding");
        String cl = headers.get("content-length");
        boolean chunked = false;
        if (te != null) {
            if (!te.equalsIgnoreCase("chunked")) throw new BadRequest(501, "unsupported Transfer-Encoding: " + te);
            chunked = true;
            if (cl != null) keepAlive = false; // both framings present: read as chunked, then don't trust the stream
        }
        long length = 0;
        if (!chunked && cl != null) {
            if (cl.isEmpty() || cl.length() > 10 || !cl.chars().allMatch(c -> c >= '0' && c <= '9')) throw new BadRequest(400, "bad Content-Length: " + cl);
            length = Long.parseLong(cl);
            if (length > MAX_BODY) throw new BadRequest(413, "request body exceeds " + (MAX_BODY >> 20) + " MB");
        }
        if ((chunked || length > 0) && hasToken(headers.get("expect"), "100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        byte[] body = chunked ? in.chunked() : in.bytes((int) length);
        return new SocketExchange(out, start, method, path(target), keepAlive, body);
    }

    /** The path of an origin-form or absolute-form target, without the query. */
    private static String path(String target) {
        String p = target;
        if (p.startsWith("http://") || p.startsWith("https://")) {
            int slash = p.indexOf('/', p.indexOf("//") + 2);
            p = slash < 0 ? "/" : p.substring(slash);
        }
        int q = p.indexOf('?');
        return q < 0 ? p : p.substring(0, q);
    }

    private static boolean token(char c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    private static boolean hasToken(String header, String token) {
        if (header == null) return false;
        for (String t : header.split(",")) if (t.trim().equalsIgnoreCase(token)) return true;
        return false;
    }

    /** Status line, headers and the first {@code send} bytes of {@code body} in one array, so each response is one write. */
    static byte[] response(int status, byte[] body, int send, Map<String, String> extra, boolean close) {
        StringBuilder h = new StringBuilder(160).append("HTTP/1.1 ").append(status).append(' ').append(reason(status))
                .append("\r\nContent-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        extra.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
        if (close) h.append("Connection: close\r\n");
        byte[] head = h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(head, head.length + send);
        System.arraycopy(body, 0, all, head.length, send);
        return all;
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK"; case 400 -> "Bad Request"; case 404 -> "Not Found"; case 413 -> "Payload Too Large";
            case 429 -> "Too Many Requests"; case 500 -> "Internal Server Error"; case 501 -> "Not Implemented";
            default -> "Status";
        };
    }

    /** Not thread-safe; one request on its connection thread. */
    static final class SocketExchange implements Exchange {
        private final OutputStream out;
        private final long startNanos;
        private final String method, path;
        private final boolean keepAlive;
        private final byte[] body;
        private int state; // 0 pending, 1 answered, 2 connection to be dropped

        SocketExchange(OutputStream out, long startNanos, String method, String path, boolean keepAlive, byte[] body) {
            this.out = out; this.startNanos = startNanos; this.method = method; this.path = path;
            this.keepAlive = keepAlive; this.body = body;
        }

        @Override public long startNanos() { return startNanos; }
        @Override public String method() { return method; }
        @Override public String path() { return path; }
        @Override public String body() { return new String(body, StandardCharsets.UTF_8); }

        /** In one write, flushed. */
        @Override public void respond(int status, String json, Map<String, String> headers) throws IOException {
            state = 1;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            out.write(response(status, b, method.equals("HEAD") ? 0 : b.length, headers, !keepAlive));
            out.flush();
        }

        @Override public void respondTruncated(int status, String json) throws IOException {
            state = 2;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            out.write(response(status, b, b.length / 2, Map.of(), false));
            out.flush();
        }

        @Override public void drop() { state = 2; }
    }

    /** A request the server refuses before routing it; the connection is closed after the reply. */
    private static final class BadRequest extends IOException {
        final int status;
        BadRequest(int status, String message) { super(message); this.status = status; }
    }

    /** Not thread-safe. A buffered reader of one connection's bytes. */
    private static final class In {
        private final InputStream is;
        private final byte[] buf = new byte[16 * 1024];
        private int pos, lim;

        In(InputStream is) { this.is = is; }

        private boolean fill() throws IOException {
            if (pos < lim) return true;
            int n = is.read(buf, 0, buf.length);
            if (n > 0) { pos = 0; lim = n; }
            return n > 0;
        }

        /** A CRLF- or LF-terminated line (ISO-8859-1, terminator removed); its bytes count against {@code budget[0]}. */
        String line(int[] budget, boolean eofOk) throws IOException {
            ByteArrayOutputStream acc = null;
            boolean any = false;
            while (true) {
                if (!fill()) {
                    if (!any && eofOk) return null;
                    throw new EOFException("connection closed mid-request");
                }
                any = true;
                int i = pos;
                while (i < lim && buf[i] != '\n') i++;
                int n = i - pos + (i < lim ? 1 : 0);
                if ((budget[0] -= n) < 0) throw new BadRequest(400, "request line and headers exceed " + (MAX_HEAD >> 10) + " KB");
                if (i < lim) {
                    String s;
                    if (acc == null) {
                        s = new String(buf, pos, i - pos, StandardCharsets.ISO_8859_1);
                    } else {
                        acc.write(buf, pos, i - pos);
                        s = acc.toString(StandardCharsets.ISO_8859_1);
                    }
                    pos = i + 1;
                    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
                }
                if (acc == null) acc = new ByteArrayOutputStream();
                acc.write(buf, pos, lim - pos);
                pos = lim;
            }
        }

        byte[] bytes(int n) throws IOException {
            byte[] b = new byte[n];
            int have = Math.min(n, lim - pos);
            System.arraycopy(buf, pos, b, 0, have);
            pos += have;
            if (is.readNBytes(b, have, n - have) != n - have) throw new EOFException("connection closed mid-body");
            return b;
        }

        byte[] chunked() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            int[] budget = {MAX_HEAD};
            while (true) {
                String line = line(budget, false);
                int semi = line.indexOf(';');
                String hex = (semi < 0 ? line : line.substring(0, semi)).trim();
                if (hex.isEmpty() || hex.length() > 8 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0))
                    throw new BadRequest(400, "bad chunk size: " + line);
                long size = Long.parseLong(hex, 16);
                if (size == 0) break;
                if (body.size() + size > MAX_BODY) throw new BadRequest(413, "request body exceeds " + (MAX_BODY >> 20) + " MB");
                body.write(bytes((int) size));
                if (!line(budget, false).isEmpty()) throw new BadRequest(400, "chunk not followed by CRLF");
            }
            while (!line(budget, false).isEmpty()) { /* trailer fields: ignored */ }
            return body.toByteArray();
        }
    }
}
