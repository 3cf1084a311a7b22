package io.skillopt4j.backend.internal;

import okhttp3.Authenticator;
import okhttp3.Credentials;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Immutable. Proxies from the environment as curl and the Python SDKs read them: {@code <scheme>_proxy}, then
 * {@code all_proxy} (lower case before upper case), and {@code no_proxy} (hosts, domain suffixes, {@code host:port},
 * CIDR ranges or {@code *}). The JVM's own proxy properties win when set: they are the more specific choice.
 */
public final class EnvProxies extends ProxySelector {
    private final Map<String, String> env;
    private final ProxySelector jvm;

    /** Reads proxies from {@code env}, deferring to {@code jvm} (the JVM's default selector) when it names one. */
    public EnvProxies(Map<String, String> env, ProxySelector jvm) {
        this.env = Map.copyOf(env);
        this.jvm = jvm;
    }

    /** The selector of this process: its environment and the JVM's default selector. */
    public static EnvProxies fromProcess() { return new EnvProxies(System.getenv(), ProxySelector.getDefault()); }

    @Override public List<Proxy> select(URI uri) {
        boolean jvmConfigured = jvm != null && Stream.of("http.proxyHost", "https.proxyHost", "socksProxyHost")
                .map(System::getProperty).anyMatch(v -> v != null && !v.isBlank());
        if (jvmConfigured) {
            List<Proxy> p = jvm.select(uri);
            if (p != null && !p.isEmpty() && p.get(0).type() != Proxy.Type.DIRECT) return p;
        }
        String spec = proxyFor(uri);
        Proxy p = spec == null ? null : parse(spec);
        return List.of(p == null ? Proxy.NO_PROXY : p);
    }

    @Override public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
        // nothing to learn: the call's own failure reaches the caller with the proxy's address
    }

    /** The proxy URL the environment names for {@code uri}, or null for a direct connection. */
    String proxyFor(URI uri) {
        String scheme = uri.getScheme() == null ? "http" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (bypass(host, uri.getPort() == -1 ? ("https".equals(scheme) ? 443 : 80) : uri.getPort())) return null;
        String v = var(scheme + "_proxy");
        return v != null ? v : var("all_proxy");
    }

    private String var(String lower) {
        String v = env.get(lower);
        if (v == null || v.isBlank()) v = env.get(lower.toUpperCase(Locale.ROOT));
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Whether {@code no_proxy} lists {@code host} (exactly, as a domain suffix, by port or by CIDR range). */
    boolean bypass(String host, int port) {
        String list = var("no_proxy");
        if (list == null) return false;
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        for (String raw : list.split(",")) {
            String e = raw.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) continue;
            if (e.equals("*")) return true;
            int colon = e.lastIndexOf(':');
            if (colon > 0 && e.indexOf(':') == colon && e.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                if (Integer.parseInt(e.substring(colon + 1)) != port) continue;
                e = e.substring(0, colon);
            }
            if (e.contains("/") ? inRange(h, e) : matchesHost(h, e)) return true;
        }
        return false;
    }

    private static boolean matchesHost(String host, String entry) {
        String e = entry.startsWith("*.") ? entry.substring(2) : entry.startsWith(".") ? entry.substring(1) : entry;
        return host.equals(e) || host.endsWith("." + e);
    }

    private static boolean inRange(String host, String cidr) {
        try {
            String[] p = cidr.split("/", 2);
            if (!isIpLiteral(host) || !isIpLiteral(p[0])) return false;
            byte[] a = InetAddress.getByName(host).getAddress();
            byte[] net = InetAddress.getByName(p[0]).getAddress();
            if (a.length != net.length) return false;
            int bits = Integer.parseInt(p[1]);
            for (int i = 0; i < a.length && bits > 0; i++, bits -= 8) {
                int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
                if ((a[i] & mask) != (net[i] & mask)) return false;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    // literals only: a name must never trigger a DNS lookup here
    private static boolean isIpLiteral(String s) { return s.matches("[0-9.]+") || s.contains(":"); }

    /** The proxy of a proxy URL ({@code http://}, {@code socks5://}, bare {@code host:port}); null when unusable. */
    static Proxy parse(String spec) {
        URI u = uri(spec);
        if (u == null || u.getHost() == null) return null;
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
        boolean socks = scheme.startsWith("socks");
        int port = u.getPort() != -1 ? u.getPort() : socks ? 1080 : "https".equals(scheme) ? 443 : 80;
        return new Proxy(socks ? Proxy.Type.SOCKS : Proxy.Type.HTTP, InetSocketAddress.createUnresolved(u.getHost(), port));
    }

    private static URI uri(String spec) {
        try {
            return URI.create(spec.contains("://") ? spec : "http://" + spec);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Answers a proxy's 407 once with the user and password of that proxy's URL; null (give up) when it has none. */
    public Authenticator authenticator() {
        return (route, response) -> {
            if (response.request().header("Proxy-Authorization") != null) return null;
            String auth = credentialsFor(route == null ? null : route.proxy());
            return auth == null ? null : response.request().newBuilder().header("Proxy-Authorization", auth).build();
        };
    }

    private String credentialsFor(Proxy proxy) {
        if (proxy == null || !(proxy.address() instanceof InetSocketAddress a)) return null;
        for (String k : List.of("https_proxy", "http_proxy", "all_proxy")) {
            String s = var(k);
            URI u = s == null ? null : uri(s);
            if (u == null || u.getRawUserInfo() == null || u.getHost() == null) continue;
            Proxy p = parse(s);
            if (p == null || !(p.address() instanceof InetSocketAddress pa)) continue;
            if (!pa.getHostString().equalsIgnoreCase(a.getHostString()) || pa.getPort() != a.getPort()) continue;
            String[] up = u.getUserInfo().split(":", 2);
            return Credentials.basic(up[0], up.length > 1 ? up[1] : "");
        }
        return null;
    }
}
