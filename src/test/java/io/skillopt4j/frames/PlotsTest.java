package io.skillopt4j.frames;

import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class PlotsTest {
    static int distinctColours(BufferedImage img) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) for (int x = 0; x < img.getWidth(); x += 2) colours.add(img.getRGB(x, y) & 0xFFFFFF);
        return colours.size();
    }

    @Test
    void writesFiveNonTrivialPngFilesIntoTheGivenFolder(@TempDir Path dir) throws Exception {
        List<Plot> plots = Plots.of(RunFrames.load(Fixtures.run("python-searchqa"))).writeAll(dir.resolve("plots"));
        assertEquals(List.of("learning_curve", "gate_timeline", "edit_budget", "tokens_by_stage", "score_by_task_type"),
                plots.stream().map(Plot::name).toList());
        for (Plot p : plots) {
            Path f = dir.resolve("plots").resolve(p.name() + ".png");
            assertEquals(f, p.file());
            assertTrue(Files.size(f) > 5_000, p.name() + " is " + Files.size(f) + " bytes");
            BufferedImage img = ImageIO.read(f.toFile());
            assertEquals(Plots.WIDTH, img.getWidth());
            assertEquals(Plots.HEIGHT, img.getHeight());
            assertTrue(distinctColours(img) >= 8, p.name() + " has only " + distinctColours(img) + " colours");
        }
    }

    @Test
    void learningCurveHasSeriesColoursBeyondBlackAndWhite() throws Exception {
        Plot p = Plots.of(RunFrames.load(Fixtures.run("python-searchqa"))).learningCurve();
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(p.png()));
        int saturated = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) saturated++;
            }
        }
        assertTrue(saturated > 500, "coloured pixels: " + saturated);
        assertTrue(p.dataUrl().startsWith("data:image/png;base64,iVBOR"));
    }

    @Test
    void plotsOfAnEmptyOrPartialRunStillRender(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("config.json"), "{}");
        for (Plot p : Plots.of(RunFrames.load(dir)).all()) assertEquals(Plots.WIDTH, p.image().getWidth());
        for (Plot p : Plots.of(RunFrames.load(Fixtures.run("python-searchqa-killed"))).all()) assertTrue(p.png().length > 5_000);
    }
}
