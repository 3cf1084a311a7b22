package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseCategory.Style;
import io.skillopt4j.env.houserules.HouseTasks;

import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Immutable. The simulated target model: answers a house-rules task following only the conventions its skill states
 * in a recognised phrasing (else the naive way; a decoy rule it follows). A seeded slip rate makes it sometimes
 * ignore a rule it has; {@link TargetNoise} adds noise that also differs between repeats of the same request.
 */
record TargetRole(long seed, double slipRate, TargetNoise noise) {
    String reply(String system, String user) {
        Optional<HouseCategory> cat = HouseTasks.categoryOf(user);
        if (cat.isEmpty()) return "I could not find a task I know how to answer.\n<answer>unknown</answer>";
        HouseCategory c = cat.get();
        String skill = SimText.skillOfSystemPrompt(system);
        Style style = BundleReading.style(c, skill);
        SplittableRandom r = SimText.rng(seed, "target", system + "\n\u0000\n" + user);
        boolean slip = r.nextDouble() < slipRate;
        String thought = switch (style) {
            case HOUSE -> "The skill states a house rule for " + c.key() + " answers, so I apply it.";
            case DECOY -> "The skill tells me how to write " + c.key() + " answers, so I follow it.";
            case NAIVE -> "The skill says nothing specific about " + c.key() + " answers, so I use the usual format.";
        };
        if (slip && style != Style.NAIVE) {
            style = Style.NAIVE;
            thought = "I answer in the usual format.";
        }
        if (noise.flips(system, user)) style = style == Style.HOUSE ? Style.NAIVE : Style.HOUSE; // right <-> wrong
        String answer = HouseTasks.answer(c, user, style).orElse("unknown");
        return thought + "\n<answer>" + answer + "</answer>";
    }
}
