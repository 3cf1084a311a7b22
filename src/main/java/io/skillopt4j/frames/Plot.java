package io.skillopt4j.frames;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Objects;

/** Immutable (the image must not be drawn on). One rendered chart; {@code file} is null when not written. */
public record Plot(String name, BufferedImage image, byte[] png, Path file) {
    public Plot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(image, "image");
        png = png.clone();
    }

    @Override public byte[] png() { return png.clone(); }

    /** Returns the PNG as a {@code data:image/png;base64,...} URL, for self-contained HTML. */
    public String dataUrl() { return "data:image/png;base64," + Base64.getEncoder().encodeToString(png); }

    @Override public String toString() {
        return name + " " + image.getWidth() + "x" + image.getHeight() + " PNG, " + png.length + " bytes"
                + (file == null ? "" : " → " + file);
    }
}
