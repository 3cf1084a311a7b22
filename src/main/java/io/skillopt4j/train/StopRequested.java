package io.skillopt4j.train;

/** Thrown inside the training thread when a stop was requested; the folder stays resumable. */
final class StopRequested extends RuntimeException {
    StopRequested() { super("training stopped", null, false, false); }
}
