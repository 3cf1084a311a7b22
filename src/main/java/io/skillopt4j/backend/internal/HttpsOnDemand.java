package io.skillopt4j.backend.internal;

import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stateless, thread-safe. First interceptor of the cleartext client ({@link Http}): a request for, or redirected to,
 * an {@code https://} URL is made again by the TLS-capable client with this call's timeouts. That is a new call,
 * which cancelling the original does not cancel: hedging relies on {@link Http#client(java.time.Duration, String)}.
 */
final class HttpsOnDemand implements Interceptor {
    /** The TLS-capable client derived from the cleartext one: same pool, dispatcher and interceptors but this one. */
    static OkHttpClient tlsCapable(OkHttpClient cleartext) {
        OkHttpClient.Builder b = cleartext.newBuilder()
                .connectionSpecs(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT)) // OkHttp's defaults
                .followSslRedirects(true);
        b.interceptors().removeIf(i -> i instanceof HttpsOnDemand);
        return b.build();
    }

    @Override public Response intercept(Chain chain) throws IOException {
        Request req = chain.request();
        if (req.isHttps()) return overTls(chain, req);
        Response r = chain.proceed(req);
        String location = r.isRedirect() ? r.header("Location") : null;
        HttpUrl target = location == null ? null : req.url().resolve(location);
        if (target == null || !target.isHttps()) return r;
        r.close();
        return overTls(chain, req);
    }

    private static Response overTls(Chain chain, Request req) throws IOException {
        OkHttpClient tls = Http.shared().newBuilder()
                .connectTimeout(chain.connectTimeoutMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(chain.readTimeoutMillis(), TimeUnit.MILLISECONDS)
                .writeTimeout(chain.writeTimeoutMillis(), TimeUnit.MILLISECONDS)
                .build();
        return tls.newCall(req).execute();
    }
}
