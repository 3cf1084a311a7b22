package io.skillopt4j.backend.internal;

import io.skillopt4j.BackendException;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). The one place where an agent CLI's failure signals become retriable or non-retriable
 * {@link BackendException}s, by {@link HttpErrors}' rule: auth, permission, unknown model and a rejected flag are not
 * retried. Messages are one scrubbed line that starts with the backend name.
 */
public final class AgentErrors {
    /** What CLIs print when the key, login or permission is wrong, the model is unknown or a flag is rejected. */
    private static final List<Pattern> NON_RETRIABLE = List.of(
            Pattern.compile("(?i)\\b(401|403)\\b"),
            Pattern.compile("(?i)unauthori[sz]ed|forbidden|authentication|not authenticated|invalid[ _-]?api[ _-]?key|incorrect api key"
                    + "|no authentication information|api key (is )?(missing|not set)|please (run|log ?in)|login required|permission_error"
                    + "|credit balance is too low|insufficient[_ ]quota|billing"),
            Pattern.compile("(?i)unknown option|unknown argument|unrecognized (option|argument)|unexpected argument|invalid value for"
                    + "|error: option"),
            Pattern.compile("(?i)(unknown|invalid|unsupported|not (found|supported|available)).{0,40}\\bmodel\\b|\\bmodel\\b.{0,60}"
                    + "(does not exist|not found|not supported|unknown|not available|invalid)|model_not_found|not_found_error"),
            Pattern.compile("(?i)cannot be used with root/sudo privileges"));

    private AgentErrors() {}

    /** What a status means to the user, in the words of the one-line message. */
    public static String statusMeaning(int status) {
        return switch (status) {
            case 400 -> "bad request";
            case 401 -> "invalid API key";
            case 402 -> "payment required";
            case 403 -> "permission denied";
            case 404 -> "not found: unknown model?";
            case 408 -> "request timeout";
            case 409 -> "conflict";
            case 413 -> "request too large";
            case 429 -> "rate limited";
            case 529 -> "overloaded";
            default -> status >= 500 ? "server error" : "error";
        };
    }

    /** The provider's answer as the CLI reported it; retriable by {@link HttpErrors#retriable(int)}. */
    public static BackendException api(String backend, String provider, int status, String detail) {
        String d = detail == null ? "" : detail.strip();
        String msg = backend + ": the " + provider + " API answered " + status + " (" + statusMeaning(status) + ")" + (d.isEmpty() ? "" : ": " + d);
        return HttpErrors.failure(backend, status, msg, HttpErrors.retriable(status), null);
    }

    /** An attempt that ran out of time: retriable (the run may get another attempt within its wall limit). */
    public static BackendException timeout(String backend, String cli, Duration timeout) {
        return HttpErrors.failure(backend, 0, backend + ": " + cli + " timed out after " + seconds(timeout) + " s (attempt timeout)", true, null);
    }

    /** The executable could not be started: non-retriable, with the setting that names it. */
    public static BackendException cannotRun(String backend, String binary, String setting, IOException e) {
        return HttpErrors.failure(backend, 0, backend + ": cannot run '" + binary + "' (install it or set " + setting + "): "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), false, e);
    }

    /** A CLI that failed without a readable status: its printed {@code text} decides ({@link #looksNonRetriable}). */
    public static BackendException failed(String backend, String cli, int exitCode, String text) {
        String t = text == null ? "" : text.strip();
        String msg = backend + ": " + cli + (exitCode > 0 ? " exited with code " + exitCode : " failed") + (t.isEmpty() ? "" : ": " + tail(t, 600));
        return HttpErrors.failure(backend, 0, msg, !looksNonRetriable(t), null);
    }

    /** A failure the caller has already classified. */
    public static BackendException of(String backend, String message, boolean retriable) {
        return HttpErrors.failure(backend, 0, message, retriable, null);
    }

    /** The failure of the last of {@code attempts}, saying how many were made when the call was tried again. */
    public static BackendException afterAttempts(BackendException f, int attempts) {
        return attempts < 2 ? f : HttpErrors.failure(f.backend(), f.status(), f.backend() + ": failed after " + attempts + " attempts: "
                + f.getMessage(), f instanceof BackendException.Retriable, f);
    }

    /** True when {@code text} reads like a failure retrying cannot fix (auth, permission, unknown model, bad flag). */
    public static boolean looksNonRetriable(String text) {
        return text != null && !text.isBlank() && NON_RETRIABLE.stream().anyMatch(p -> p.matcher(text).find());
    }

    /** The last {@code max} characters of {@code s}, on one line. */
    public static String tail(String s, int max) {
        String t = HttpErrors.oneLine(s == null ? "" : s);
        return t.length() > max ? "..." + t.substring(t.length() - max) : t;
    }

    private static String seconds(Duration d) {
        long ms = d == null ? 0 : d.toMillis();
        return ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.format(Locale.ROOT, "%.1f", ms / 1000.0);
    }
}
