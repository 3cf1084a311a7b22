package io.skillopt4j.env.houserules;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Immutable. A house-rules convention: its rule, the phrasings recognised as it, a decoy and a vague sentence. */
public enum HouseCategory {
    DATE("date",
            "Dates: write every date as YYYY-MM-DD (ISO 8601), e.g. 2024-03-07.",
            "YYYY-MM-DD|ISO[ -]?8601",
            "Dates: write dates as DD/MM/YYYY, e.g. 07/03/2024.", "DD/MM/YYYY",
            "Dates: take care to use the house date format."),
    NUMBER("number",
            "Numbers: group thousands with a space and never use commas, e.g. 1 234 567.",
            "group(?:s|ing)? (?:of )?thousands with a space|1 234 567",
            "Numbers: abbreviate large numbers with a K/M suffix, e.g. 1.2M.", "K/M suffix",
            "Numbers: large numbers need the house grouping."),
    CURRENCY("currency",
            "Money: write the amount with two decimals followed by the ISO currency code, e.g. 1234.50 EUR (no symbols).",
            "ISO currency code|ISO 4217",
            "Money: round amounts to whole units and keep the currency symbol, e.g. €1235.", "round amounts to whole units",
            "Money: be consistent when writing prices."),
    DISTANCE("distance",
            "Distances: convert to kilometres and give one decimal, e.g. 8.0 km.",
            "kilomet(?:re|er)s?",
            "Distances: keep miles and give two decimals, e.g. 5.00 mi.", "keep miles",
            "Distances: report distances in the house unit."),
    NAMING("naming",
            "Naming: name variables in snake_case (lower-case words joined by underscores).",
            "snake[_ ]case",
            "Naming: use PascalCase for variable names, e.g. OrderTotal.", "PascalCase",
            "Naming: pick clear variable names."),
    ORDERING("ordering",
            "Lists: sort list items alphabetically (A to Z) and separate them with commas.",
            "alphabetical",
            "Lists: sort list items by length, shortest first.", "by length",
            "Lists: order list items the house way."),
    TIME("time",
            "Times: use the 24-hour clock as HH:MM, e.g. 15:45.",
            "24[- ]hour",
            "Times: always include seconds, e.g. 3:45:00 PM.", "include seconds",
            "Times: write times in the house format."),
    PERCENT("percent",
            "Percentages: give exactly one decimal place with the % sign and no space, e.g. 25.6%.",
            "percent\\w*:?[^\\n]{0,40}one decimal",
            "Percentages: write shares as fractions of one, e.g. 0.256.", "fractions of one",
            "Percentages: percentages need care."),
    BOOLEAN("boolean",
            "Yes/no questions: answer with the lower-case literal true or false.",
            "literal true or false|true/false literal",
            "Yes/no questions: answer with 1 or 0.", "answer with 1 or 0",
            "Yes/no questions: answer them clearly."),
    HEADING("heading",
            "Headings: use sentence case (capitalise only the first word).",
            "sentence case",
            "Headings: write headings in ALL CAPS.", "ALL CAPS",
            "Headings: make headings tidy.");

    /** How the target renders an answer: without the convention, with it, or with the decoy rule. */
    public enum Style { NAIVE, HOUSE, DECOY }

    private final String key;
    private final String rule;
    private final Pattern recogniser;
    private final String decoy;
    private final Pattern decoyRecogniser;
    private final String vague;

    HouseCategory(String key, String rule, String recogniser, String decoy, String decoyRecogniser, String vague) {
        this.key = key;
        this.rule = rule;
        this.recogniser = Pattern.compile(recogniser, Pattern.CASE_INSENSITIVE);
        this.decoy = decoy;
        this.decoyRecogniser = Pattern.compile(Pattern.quote(decoyRecogniser), Pattern.CASE_INSENSITIVE);
        this.vague = vague;
    }

    /** The task type ({@code date}, {@code number}, ...). */
    public String key() { return key; }

    public String rule() { return rule; }

    public String decoy() { return decoy; }

    public String vague() { return vague; }

    /** The category whose key is {@code key} (case-insensitive). */
    public static Optional<HouseCategory> byKey(String key) {
        return java.util.Arrays.stream(values()).filter(c -> c.key.equalsIgnoreCase(key == null ? "" : key.trim())).findFirst();
    }

    /** All task types in declaration order. */
    public static List<String> keys() {
        return java.util.Arrays.stream(values()).map(HouseCategory::key).toList();
    }

    /** The style a reader of {@code skill} uses: HOUSE or DECOY for the rule or decoy found last, else NAIVE. */
    public Style styleIn(String skill) {
        int r = lastMatch(recogniser, skill);
        int d = lastMatch(decoyRecogniser, skill);
        if (r < 0 && d < 0) return Style.NAIVE;
        return r > d ? Style.HOUSE : Style.DECOY;
    }

    /** True when the skill states this category's rule in a recognised phrasing. */
    public boolean ruleIn(String skill) { return lastMatch(recogniser, skill) >= 0; }

    /** Where the first recognised phrasing of the rule starts in {@code text}, or -1. */
    public int ruleIndexIn(String text) {
        if (text == null || text.isEmpty()) return -1;
        Matcher m = recogniser.matcher(text);
        return m.find() ? m.start() : -1;
    }

    private static int lastMatch(Pattern p, String text) {
        if (text == null || text.isEmpty()) return -1;
        return p.matcher(text).results().mapToInt(MatchResult::start).reduce((a, b) -> b).orElse(-1);
    }

    @Override public String toString() { return key.toLowerCase(Locale.ROOT); }
}
