package io.skillopt4j.backend.internal;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Which proxy the environment names for a URL, read as curl and the Python SDKs read it. */
class EnvProxiesTest {
    private static String proxy(Map<String, String> env, String url) {
        List<Proxy> p = new EnvProxies(env, null).select(URI.create(url));
        if (p.get(0).type() == Proxy.Type.DIRECT) return "DIRECT";
        InetSocketAddress a = (InetSocketAddress) p.get(0).address();
        return p.get(0).type() + " " + a.getHostString() + ":" + a.getPort();
    }

    @Test void schemeSpecificVariablesLowerCaseFirst() {
        Map<String, String> env = Map.of("HTTPS_PROXY", "http://secure:3128", "HTTP_PROXY", "plain:8080", "http_proxy", "http://lower:8081");
        assertEquals("HTTP secure:3128", proxy(env, "https://api.openai.com/v1"));
        assertEquals("HTTP lower:8081", proxy(env, "http://10.0.0.5:8000/v1"), "lower case wins, as in curl");
        assertEquals("DIRECT", proxy(Map.of("HTTPS_PROXY", "http://secure:3128"), "http://10.0.0.5:8000/v1"), "no http_proxy: direct");
        assertEquals("HTTP plain:80", proxy(Map.of("HTTP_PROXY", "plain"), "http://h/"), "port 80 when absent");
        assertEquals("SOCKS sock:1080", proxy(Map.of("ALL_PROXY", "socks5://sock"), "https://h/"), "all_proxy for either scheme");
        assertEquals("DIRECT", proxy(Map.of(), "https://h/"));
    }

    @Test void noProxyListsHostsSuffixesPortsRangesAndStar() {
        Map<String, String> env = Map.of("HTTPS_PROXY", "http://p:1", "HTTP_PROXY", "http://p:1",
                "NO_PROXY", "localhost, .internal.example,corp.example , 10.1.0.0/16,gpu:8000");
        assertEquals("DIRECT", proxy(env, "http://localhost:8000/v1"));
        assertEquals("DIRECT", proxy(env, "https://llm.internal.example/v1"));
        assertEquals("DIRECT", proxy(env, "https://corp.example/v1"));
        assertEquals("DIRECT", proxy(env, "https://a.b.corp.example/v1"), "a domain also covers its subdomains");
        assertEquals("HTTP p:1", proxy(env, "https://notcorp.example/v1"), "a suffix only at a dot");
        assertEquals("DIRECT", proxy(env, "http://10.1.200.3:8000/v1"), "inside the CIDR range");
        assertEquals("HTTP p:1", proxy(env, "http://10.2.0.3:8000/v1"));
        assertEquals("DIRECT", proxy(env, "http://gpu:8000/v1"), "host:port matches that port");
        assertEquals("HTTP p:1", proxy(env, "http://gpu:9000/v1"));
        assertEquals("DIRECT", proxy(Map.of("HTTPS_PROXY", "http://p:1", "no_proxy", "*"), "https://api.openai.com/"));
    }
}
