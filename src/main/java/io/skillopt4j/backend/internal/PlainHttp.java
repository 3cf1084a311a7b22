package io.skillopt4j.backend.internal;

import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Connection;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The transport for JSON posts to plain {@code http://} servers that no proxy stands in front of: local
 * model servers (vLLM, Ollama, llama.cpp, LM Studio), the simulator, the shared fake LLM. It runs the client's own
 * application interceptors ({@link Http.Retry}, {@link Http.Log}: the same retries, faults and log lines as over
 * OkHttp) and then one HTTP/1.1 exchange on a pooled keep-alive socket ({@link PlainConnection}). Why: in a cold JVM
 * OkHttp's call machinery (dispatcher, interceptor chain, exchange codec, Okio, the pool's task thread) runs
 * interpreted on every call, ~0.5 ms a call on a 2-vCPU machine, about the fake LLM's own time per call
 * (docs/performance.md#plain-http). HTTPS, a proxy, and {@code -Dskillopt.http.plain=false} keep OkHttp.
 *
 * <p>Deliberately small: requests are sent whole with a {@code Content-Length}, replies are read whole (length,
 * chunked, or until close), and no compression is asked for. Timeouts are OkHttp's: connect, read, and write (a write
 * larger than a socket buffer is guarded by a timer that closes the socket, see {@link PlainConnection#send}).
 */
public final class PlainHttp {
    /** System property: {@code false} sends plain-HTTP calls through OkHttp too. */
    public static final String PROPERTY = "skillopt.http.plain";
    private static final ConcurrentHashMap<Route, Boolean> DIRECT = new ConcurrentHashMap<>();

    /**
     * A host and port as one client's proxy selector sees them (selectors compare by identity). equals and hashCode
     * are written out: a record's generated ones go through {@code ObjectMethods}' method-handle chain, which a cold
     * JVM interprets: ~19 % of a call's {@code postJson} time in a profile of the shared workload.
     */
    private record Route(java.net.ProxySelector selector, String host, int port) {
        @Override public boolean equals(Object o) {
            return o instanceof Route r && r.selector == selector && r.port == port && r.host.equals(host);
        }

        @Override public int hashCode() { return (System.identityHashCode(selector) * 31 + host.hashCode()) * 31 + port; }
    }

    private PlainHttp() {}

    /** True when a call to {@code url} through {@code client} can go over a plain socket (http, no proxy). */
    static boolean eligible(OkHttpClient client, HttpUrl url) {
        if (url == null || url.isHttps() || client.proxy() != null || "false".equals(System.getProperty(PROPERTY))) return false;
        Route key = new Route(client.proxySelector(), url.host(), url.port());
        Boolean direct = DIRECT.get(key);
        if (direct == null) {
            List<Proxy> proxies;
            try {
                proxies = client.proxySelector().select(url.uri());
            } catch (RuntimeException e) {
                proxies = List.of(Proxy.NO_PROXY);
            }
            direct = proxies == null || proxies.isEmpty() || proxies.get(0).type() == Proxy.Type.DIRECT;
            if (DIRECT.size() < 64) DIRECT.put(key, direct);
        }
        return direct;
    }

    /** Runs {@code req} through {@code client}'s application interceptors and then one exchange over a plain socket. */
    static Response execute(OkHttpClient client, Request req) throws IOException {
        Exchange call = new Exchange(req);
        return new Chain(client.interceptors(), 0, req, call, client.connectTimeoutMillis(), client.readTimeoutMillis(),
                client.writeTimeoutMillis()).proceed(req);
    }

    /** One exchange: request out whole, reply read whole; a pooled socket that fails before replying is stale. */
    static Response exchange(Request req, int connectMs, int readMs, int writeMs) throws IOException {
        HttpUrl url = req.url();
        byte[] body = body(req);
        byte[] head = head(req, body.length);
        PlainConnection conn = PlainConnection.take(url.host(), url.port());
        boolean reused = conn != null;
        if (conn == null) conn = PlainConnection.open(url.host(), url.port(), connectMs);
        long sent = System.currentTimeMillis();
        PlainConnection.Reply reply;
        try {
            conn.timeout(readMs);
            conn.send(head, body, writeMs);
            reply = conn.read();
        } catch (IOException e) {
            conn.close();
            // a reused socket the server had closed while idle: not the server's answer (timeouts are, though). Its
            // pooled siblings are as old or older, and after a server restart on the port all dead: the retry that
            // follows opens a new socket instead of spending the stale retries on them
            if (reused && !conn.answered() && !(e instanceof InterruptedIOException)) {
                PlainConnection.evict(url.host(), url.port());
                throw new Http.StaleConnection(e);
            }
            throw e;
        } catch (RuntimeException e) {
            conn.close();
            throw e;
        }
        if (reply.keepAlive()) conn.release(); else conn.close();
        String type = reply.headers().get("Content-Type");
        return new Response.Builder().request(req).protocol(reply.http10() ? Protocol.HTTP_1_0 : Protocol.HTTP_1_1)
                .code(reply.code()).message(reply.message()).headers(reply.headers())
                .body(ResponseBody.create(reply.body(), mediaType(type)))
                .sentRequestAtMillis(sent).receivedResponseAtMillis(System.currentTimeMillis()).build();
    }

    /** The last reply's media type, parsed once: OkHttp parses with a regex, every reply, for the same string. */
    private static volatile MediaType lastType;

    private static MediaType mediaType(String type) {
        if (type == null) return null;
        MediaType last = lastType;
        if (last != null && type.equals(last.toString())) return last;
        MediaType parsed = MediaType.parse(type);
        if (parsed != null) lastType = parsed;
        return parsed;
    }

    private static byte[] head(Request req, int length) {
        HttpUrl url = req.url();
        StringBuilder h = new StringBuilder(256).append(req.method()).append(' ').append(url.encodedPath());
        if (url.encodedQuery() != null) h.append('?').append(url.encodedQuery());
        h.append(" HTTP/1.1\r\nHost: ").append(hostHeader(url)).append("\r\n");
        okhttp3.Headers hs = req.headers();
        for (int i = 0; i < hs.size(); i++) h.append(hs.name(i)).append(": ").append(hs.value(i)).append("\r\n");
        okhttp3.RequestBody b = req.body();
        if (b != null) {
            if (b.contentType() != null && hs.get("Content-Type") == null) h.append("Content-Type: ").append(b.contentType()).append("\r\n");
            h.append("Content-Length: ").append(length).append("\r\n");
        }
        if (hs.get("User-Agent") == null) h.append("User-Agent: SkillOpt4J\r\n");
        return h.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String hostHeader(HttpUrl url) {
        String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
        return url.port() == 80 ? host : host + ":" + url.port();
    }

    private static byte[] body(Request req) throws IOException {
        okhttp3.RequestBody b = req.body();
        if (b == null) return new byte[0];
        if (b instanceof JsonBody j) return j.bytes();
        okio.Buffer buf = new okio.Buffer();
        b.writeTo(buf);
        return buf.readByteArray();
    }

    /** A request body already encoded: written as is by either transport. */
    static final class JsonBody extends okhttp3.RequestBody {
        private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
        private final byte[] bytes;

        JsonBody(String json) { this.bytes = json.getBytes(StandardCharsets.UTF_8); }

        byte[] bytes() { return bytes; }

        @Override public MediaType contentType() { return JSON; }

        @Override public long contentLength() { return bytes.length; }

        @Override public void writeTo(okio.BufferedSink sink) throws IOException { sink.write(bytes); }
    }

    /** The interceptor chain: the client's application interceptors, then {@link #exchange}. */
    private record Chain(List<Interceptor> interceptors, int index, Request request, Exchange call, int connectMs,
                         int readMs, int writeMs) implements Interceptor.Chain {
        @Override public Response proceed(Request req) throws IOException {
            if (call.isCanceled()) throw new IOException("Canceled");
            if (index >= interceptors.size()) return exchange(req, connectMs, readMs, writeMs);
            Chain next = new Chain(interceptors, index + 1, req, call, connectMs, readMs, writeMs);
            Response r = interceptors.get(index).intercept(next);
            if (r == null) throw new NullPointerException("interceptor " + interceptors.get(index) + " returned null");
            return r;
        }

        @Override public Connection connection() { return null; }

        @Override public int connectTimeoutMillis() { return connectMs; }

        @Override public Interceptor.Chain withConnectTimeout(int t, TimeUnit unit) {
            return new Chain(interceptors, index, request, call, (int) unit.toMillis(t), readMs, writeMs);
        }

        @Override public int readTimeoutMillis() { return readMs; }

        @Override public Interceptor.Chain withReadTimeout(int t, TimeUnit unit) {
            return new Chain(interceptors, index, request, call, connectMs, (int) unit.toMillis(t), writeMs);
        }

        @Override public int writeTimeoutMillis() { return writeMs; }

        @Override public Interceptor.Chain withWriteTimeout(int t, TimeUnit unit) {
            return new Chain(interceptors, index, request, call, connectMs, readMs, (int) unit.toMillis(t));
        }
    }

    /** The {@link Call} an interceptor sees: synchronous, executed once by {@link #execute}, never cancelled here. */
    private static final class Exchange implements Call {
        private final Request request;
        private volatile boolean canceled;

        Exchange(Request request) { this.request = request; }

        @Override public Request request() { return request; }

        @Override public Response execute() { throw new IllegalStateException("already executed"); }

        @Override public void enqueue(Callback callback) { throw new IllegalStateException("already executed"); }

        @Override public void cancel() { canceled = true; }

        @Override public boolean isExecuted() { return true; }

        @Override public boolean isCanceled() { return canceled; }

        @Override public okio.Timeout timeout() { return okio.Timeout.NONE; }

        @Override public Call clone() { return new Exchange(request); }
    }

    /** Test support: closes every pooled socket. */
    static void evictAll() { PlainConnection.evictAll(); }
}
