package io.skillopt4j.run;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lock holder's host is read without a lookup, and is the name earlier versions wrote (alive() compares them). */
class RunLockHostTest {
    @Test
    void theHostIsTheNameTheLookupGives() throws Exception {
        String env = System.getenv("HOSTNAME"); // as before: an exported HOSTNAME wins
        assertEquals(env != null && !env.isBlank() ? env : InetAddress.getLocalHost().getHostName(), RunLock.host());
    }
}
