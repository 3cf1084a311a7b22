package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Thread-safe. AAD bearer tokens for Azure OpenAI, from managed identity or {@code az account get-access-token} (as
 * upstream falls back to), cached and refreshed when 300 s or less remain.
 */
public final class AzureTokens implements Supplier<String> {
    private static final String IMDS = "http://169.254.169.254/metadata/identity/oauth2/token";
    private final String backend;
    private final Supplier<Token> fetch;
    private Token cached;

    private record Token(String value, Instant expires) {}

    private AzureTokens(String backend, Supplier<Token> fetch) {
        this.backend = backend;
        this.fetch = fetch;
    }

    /** The resource of a scope: {@code https://x/.default} → {@code https://x}. */
    public static String resource(String scope) {
        return scope.endsWith("/.default") ? scope.substring(0, scope.length() - "/.default".length()) : scope;
    }

    /** Tokens from the {@code az} CLI at {@code azPath}, run with a scrubbed environment. */
    public static AzureTokens azureCli(String backend, String azPath, String scope, Map<String, String> env) {
        return new AzureTokens(backend, () -> {
            List<String> cmd = List.of(azPath, "account", "get-access-token", "--resource", resource(scope), "-o", "json");
            Proc.Result r;
            try {
                r = Proc.run(cmd, null, Proc.scrubbedEnv(env, Set.of("AZURE_CONFIG_DIR", "AZURE_*"), Map.of()), null, Duration.ofSeconds(60));
            } catch (IOException e) {
                throw new BackendException.NonRetriable(backend, 0, backend + ": cannot run '" + azPath
                        + "' for auth mode azure_cli (install the Azure CLI and run 'az login', or set azure_openai_auth_mode): " + e.getMessage(), e);
            }
            if (r.exitCode() != 0) {
                throw new BackendException.NonRetriable(backend, 0, HttpErrors.oneLine(Redactor.scrub(backend
                        + ": 'az account get-access-token' failed with exit code " + r.exitCode() + ": " + tail(r.stderr()))), null);
            }
            JsonNode n = parse(backend, r.stdout());
            Instant exp = n.path("expires_on").canConvertToLong() ? Instant.ofEpochSecond(n.path("expires_on").asLong())
                    : parseLocal(n.path("expiresOn").asText(""));
            return new Token(n.path("accessToken").asText(""), exp);
        });
    }

    /** Tokens from managed identity; {@code endpoint} null = App Service variables if set, else IMDS. */
    public static AzureTokens managedIdentity(String backend, OkHttpClient client, String endpoint, String clientId, String scope,
                                              Map<String, String> env) {
        return new AzureTokens(backend, () -> {
            String appSvc = env.get("IDENTITY_ENDPOINT");
            String header = env.get("IDENTITY_HEADER");
            boolean appService = endpoint == null && appSvc != null && header != null;
            String base = endpoint != null ? endpoint : appService ? appSvc : IMDS;
            HttpUrl.Builder u = HttpUrl.get(base).newBuilder()
                    .addQueryParameter("api-version", appService ? "2019-08-01" : "2018-02-01")
                    .addQueryParameter("resource", resource(scope));
            if (clientId != null && !clientId.isBlank()) u.addQueryParameter("client_id", clientId);
            Request.Builder rb = new Request.Builder().url(u.build());
            if (appService) rb.header("X-IDENTITY-HEADER", header);
            else rb.header("Metadata", "true");
            try (Response r = client.newCall(rb.build()).execute()) {
                String body = r.body() == null ? "" : r.body().string();
                if (!r.isSuccessful()) throw HttpErrors.forStatus(backend + " (managed identity)", r.code(), body);
                JsonNode n = parse(backend, body);
                String exp = n.path("expires_on").asText("");
                Instant e = exp.matches("\\d+") ? Instant.ofEpochSecond(Long.parseLong(exp))
                        : Instant.now().plusSeconds(n.path("expires_in").asLong(3000));
                return new Token(n.path("access_token").asText(""), e);
            } catch (IOException e) {
                throw HttpErrors.forIo(backend + " (managed identity)", e);
            }
        });
    }

    private static JsonNode parse(String backend, String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": token reply is not JSON", e);
        }
    }

    private static Instant parseLocal(String s) {
        try {
            return LocalDateTime.parse(s, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS]")).atZone(ZoneId.systemDefault()).toInstant();
        } catch (RuntimeException e) {
            return Instant.now().plusSeconds(3000);
        }
    }

    private static String tail(String s) {
        String t = s == null ? "" : s.strip();
        return t.length() > 500 ? t.substring(t.length() - 500) : t;
    }

    /** A valid token, fetched anew when none is cached or 300 s or less remain. */
    @Override public synchronized String get() {
        if (cached == null || Instant.now().isAfter(cached.expires().minusSeconds(300))) {
            Token t = fetch.get();
            if (t.value().isEmpty()) throw new BackendException.NonRetriable(backend, 0, backend + ": token reply had no access token", null);
            Redactor.remember(t.value());
            cached = t;
        }
        return cached.value();
    }

    @Override public String toString() { return "AzureTokens[" + backend + ", token=***]"; }
}
