package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** isSecretKey: a key ending in api_key/api-key/apikey, token, secret, password or authorization, in ASCII case, on one line. */
class RedactorKeyTest {
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(api[_-]?key|token|secret|password|authorization)$");

    @Test
    void secretKeysAreWhatTheRegexMatches() {
        String[] parts = {"api", "_", "-", "key", "KEY", "Api", "token", "TOKEN", "secret", "Secret", "password", "authorization",
            "AUTHORIZATION", "x", ".", "\n", "\r", "\u2028", "ſ", "\u212a", "apikey", "api-key", "api_key", "model", "tok", "en"};
        Random r = new Random(9);
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0, n = r.nextInt(5); k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            String key = sb.toString();
            assertEquals(SECRET_KEY.matcher(key.replace('-', '_')).matches(), Redactor.isSecretKey(key), key);
        }
        assertEquals(true, Redactor.isSecretKey("model.openai_api_key"));
        assertEquals(true, Redactor.isSecretKey("X-Api-Key"));
        assertEquals(false, Redactor.isSecretKey("max_tokens"));
        assertEquals(false, Redactor.isSecretKey(null));
    }
}
