package io.skillopt4j.backend;

import io.skillopt4j.backend.internal.PlainHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every test of {@link OpenAiCompatibleChatModelTest} again, with plain-HTTP calls sent through OkHttp (as HTTPS calls always are). */
class OpenAiCompatibleChatModelOverOkHttpTest extends OpenAiCompatibleChatModelTest {
    @BeforeAll static void overOkHttp() { System.setProperty(PlainHttp.PROPERTY, "false"); }

    @AfterAll static void back() { System.clearProperty(PlainHttp.PROPERTY); }
}
