package io.skillopt4j.env.houserules;

import io.skillopt4j.env.houserules.HouseCategory.Style;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Stateless. Writes house-rules questions and renders their answers; gold and simulated answers share it. */
public final class HouseTasks {
    private HouseTasks() {}

    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December"};
    private static final String[] EVENTS = {"library opening", "bridge inspection", "product launch", "board meeting",
            "server migration", "harbour festival", "audit visit", "team offsite", "contract renewal", "roof repair"};
    private static final String[] THINGS = {"parcels", "invoices", "sensor readings", "support tickets", "visitors",
            "seedlings", "bolts", "page views", "bottles", "records"};
    private static final String[] ITEMS = {"desk lamp", "train ticket", "laptop stand", "conference pass", "repair kit",
            "bicycle", "coffee machine", "license", "backpack", "monitor"};
    private static final String[][] CURRENCIES = {{"euros", "€", "EUR"}, {"dollars", "$", "USD"}, {"pounds", "£", "GBP"}};
    private static final String[] PLACES = {"Alder", "Brookfield", "Cedar Point", "Dunmore", "Elmstead", "Fairhaven",
            "Glenrock", "Hollow Creek", "Ironbridge", "Juniper"};
    private static final String[] WORDS = {"customer", "order", "total", "invoice", "count", "shipping", "address",
            "retry", "limit", "user", "session", "timeout", "price", "tax", "rate", "batch", "size", "file", "path", "cache"};
    private static final String[] NAMES = {"Oslo", "Lima", "Cairo", "Perth", "Quito", "Hanoi", "Dakar", "Bern", "Riga",
            "Nairobi", "Austin", "Kyoto", "Malmo", "Tunis", "Porto", "Accra"};
    private static final String[] TOPIC_A = {"quarterly", "annual", "weekly", "regional", "internal", "customer", "supplier",
            "security", "hiring", "travel", "warehouse", "network"};
    private static final String[] TOPIC_B = {"sales review", "budget summary", "feedback themes", "safety rules", "expense policy",
            "retention plan", "pipeline status", "outage postmortem", "release notes", "onboarding checklist"};
    private static final String[] FEATURES = {"dark mode", "audit logging", "two-factor login", "auto backup", "beta search",
            "email digest", "rate limiting", "spell check", "single sign-on", "usage alerts", "file sharing", "guest access"};
    private static final String[] AUDIENCES = {"new accounts", "administrators", "the mobile app", "trial users"};

    private static final Pattern DATE_Q = Pattern.compile("(January|February|March|April|May|June|July|August|September|October|November|December) (\\d{1,2}), (\\d{4})");
    private static final Pattern NUMBER_Q = Pattern.compile("raw count is (\\d+)");
    private static final Pattern CURRENCY_Q = Pattern.compile("shows (\\d+(?:\\.\\d+)?) (euros|dollars|pounds)");
    private static final Pattern DISTANCE_Q = Pattern.compile("reads (\\d+(?:\\.\\d+)?) miles");
    private static final Pattern NAMING_Q = Pattern.compile("variable name for the \"([a-z ]+)\"");
    private static final Pattern ORDERING_Q = Pattern.compile("List these cities: ([A-Za-z ,]+)\\.");
    private static final Pattern TIME_Q = Pattern.compile("says (\\d{1,2}):(\\d{2}) (AM|PM)");
    private static final Pattern PERCENT_Q = Pattern.compile("(\\d+) out of (\\d+)");
    private static final Pattern BOOLEAN_Q = Pattern.compile("flag is set to (on|off)");
    private static final Pattern HEADING_Q = Pattern.compile("heading for a section about \"([a-z ]+)\"");

    /** Writes one question of category {@code c}, with random facts drawn from {@code r}. */
    public static String question(HouseCategory c, SplittableRandom r) {
        return switch (c) {
            case DATE -> "On which date is the " + pick(r, EVENTS) + "? The calendar entry says "
                    + MONTHS[r.nextInt(12)] + " " + (1 + r.nextInt(28)) + ", " + (1990 + r.nextInt(40)) + ".";
            case NUMBER -> "How many " + pick(r, THINGS) + " were processed last year? The raw count is "
                    + (10_000 + r.nextInt(9_990_000)) + ".";
            case CURRENCY -> {
                String[] cur = CURRENCIES[r.nextInt(CURRENCIES.length)];
                int cents = r.nextInt(4) == 0 ? 0 : r.nextInt(100);
                String amount = (5 + r.nextInt(4000)) + (cents == 0 ? "" : cents % 10 == 0 ? "." + cents / 10 : String.format(Locale.ROOT, ".%02d", cents));
                yield "What does the " + pick(r, ITEMS) + " cost? The invoice shows " + amount + " " + cur[0] + ".";
            }
            case DISTANCE -> {
                String from = pick(r, PLACES), to = pick(r, PLACES);
                while (to.equals(from)) to = pick(r, PLACES);
                yield "How far is it from " + from + " to " + to + "? The road sign reads " + (2 + r.nextInt(300)) + " miles.";
            }
            case NAMING -> {
                List<String> ws = distinct(r, WORDS, 2 + r.nextInt(2));
                yield "Suggest a variable name for the \"" + String.join(" ", ws) + "\" in our codebase.";
            }
            case ORDERING -> {
                List<String> ns = distinct(r, NAMES, 3 + r.nextInt(3));
                if (ns.stream().sorted().toList().equals(ns)) { String first = ns.remove(0); ns.add(first); }
                yield "List these cities: " + String.join(", ", ns) + ".";
            }
            case TIME -> "When does the " + pick(r, EVENTS) + " start? The schedule says " + (1 + r.nextInt(12)) + ":"
                    + String.format(Locale.ROOT, "%02d", r.nextInt(12) * 5) + " " + (r.nextBoolean() ? "AM" : "PM") + ".";
            case PERCENT -> {
                int b = 40 + r.nextInt(900);
                int a = 1 + r.nextInt(b - 1);
                yield "What share of the " + pick(r, THINGS) + " passed inspection? " + a + " out of " + b + " passed.";
            }
            case BOOLEAN -> "Is " + pick(r, FEATURES) + " enabled for " + pick(r, AUDIENCES) + "? The configuration flag is set to "
                    + (r.nextBoolean() ? "on" : "off") + ".";
            case HEADING -> "Write a heading for a section about \"" + pick(r, TOPIC_A) + " " + pick(r, TOPIC_B) + "\".";
        };
    }

    /** The category of a question, recognised from its wording. */
    public static Optional<HouseCategory> categoryOf(String question) {
        return Arrays.stream(HouseCategory.values()).filter(c -> matcher(c, question).find()).findFirst();
    }

    /** The answer to {@code question} in {@code style}, or empty when it does not parse. */
    public static Optional<String> answer(HouseCategory c, String question, Style style) {
        Matcher m = matcher(c, question);
        if (!m.find()) return Optional.empty();
        return Optional.of(switch (c) {
            case DATE -> {
                int month = Arrays.asList(MONTHS).indexOf(m.group(1)) + 1;
                int day = Integer.parseInt(m.group(2));
                String y = m.group(3);
                yield in(style, m.group(1) + " " + day + ", " + y, String.format(Locale.ROOT, "%s-%02d-%02d", y, month, day),
                        String.format(Locale.ROOT, "%02d/%02d/%s", day, month, y));
            }
            case NUMBER -> {
                long n = Long.parseLong(m.group(1));
                String grouped = String.format(Locale.ROOT, "%,d", n);
                yield in(style, grouped, grouped.replace(',', ' '),
                        n >= 1_000_000 ? String.format(Locale.ROOT, "%.1fM", n / 1e6) : String.format(Locale.ROOT, "%.0fK", n / 1e3));
            }
            case CURRENCY -> {
                double v = Double.parseDouble(m.group(1));
                String[] cur = Arrays.stream(CURRENCIES).filter(x -> x[0].equals(m.group(2))).findFirst().orElseThrow();
                yield in(style, cur[1] + String.format(Locale.ROOT, "%.2f", v), String.format(Locale.ROOT, "%.2f %s", v, cur[2]),
                        cur[1] + Math.round(v));
            }
            case DISTANCE -> {
                double miles = Double.parseDouble(m.group(1));
                yield in(style, m.group(1) + " miles", String.format(Locale.ROOT, "%.1f km", miles * 1.609344),
                        String.format(Locale.ROOT, "%.2f mi", miles));
            }
            case NAMING -> {
                String[] ws = m.group(1).trim().split(" +");
                yield in(style, camel(ws, false), String.join("_", ws), camel(ws, true));
            }
            case ORDERING -> {
                List<String> ns = new ArrayList<>(Arrays.asList(m.group(1).trim().split(", *")));
                if (style == Style.HOUSE) ns.sort(Comparator.naturalOrder());
                if (style == Style.DECOY) ns.sort(Comparator.comparingInt(String::length));
                yield String.join(", ", ns);
            }
            case TIME -> {
                int h = Integer.parseInt(m.group(1));
                String mm = m.group(2);
                boolean pm = m.group(3).equals("PM");
                yield in(style, h + ":" + mm + " " + m.group(3), String.format(Locale.ROOT, "%02d:%s", (h % 12) + (pm ? 12 : 0), mm),
                        h + ":" + mm + ":00 " + m.group(3));
            }
            case PERCENT -> {
                double share = Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2));
                yield in(style, Math.round(share * 100) + "%", String.format(Locale.ROOT, "%.1f%%", share * 100),
                        String.format(Locale.ROOT, "%.3f", share));
            }
            case BOOLEAN -> {
                boolean on = m.group(1).equals("on");
                yield in(style, on ? "Yes" : "No", on ? "true" : "false", on ? "1" : "0");
            }
            case HEADING -> {
                String[] ws = m.group(1).trim().split(" +");
                yield in(style, titleCase(ws), cap(String.join(" ", ws)), String.join(" ", ws).toUpperCase(Locale.ROOT));
            }
        });
    }

    /** The rendering of {@code style} among the three. */
    private static String in(Style style, String naive, String house, String decoy) {
        return switch (style) { case NAIVE -> naive; case HOUSE -> house; case DECOY -> decoy; };
    }

    private static Matcher matcher(HouseCategory c, String q) {
        Pattern p = switch (c) {
            case DATE -> DATE_Q; case NUMBER -> NUMBER_Q; case CURRENCY -> CURRENCY_Q; case DISTANCE -> DISTANCE_Q;
            case NAMING -> NAMING_Q; case ORDERING -> ORDERING_Q; case TIME -> TIME_Q; case PERCENT -> PERCENT_Q;
            case BOOLEAN -> BOOLEAN_Q; case HEADING -> HEADING_Q;
        };
        return p.matcher(q == null ? "" : q);
    }

    private static String camel(String[] ws, boolean upperFirst) {
        return IntStream.range(0, ws.length).mapToObj(i -> i == 0 && !upperFirst ? ws[i] : cap(ws[i])).collect(Collectors.joining());
    }

    private static final List<String> SMALL = List.of("for", "of", "and", "the", "a", "to", "in");

    private static String titleCase(String[] ws) {
        return IntStream.range(0, ws.length).mapToObj(i -> i > 0 && SMALL.contains(ws[i]) ? ws[i] : cap(ws[i])).collect(Collectors.joining(" "));
    }

    private static String cap(String w) { return w.isEmpty() ? w : Character.toUpperCase(w.charAt(0)) + w.substring(1); }

    private static String pick(SplittableRandom r, String[] xs) { return xs[r.nextInt(xs.length)]; }

    /** {@code n} different picks, in the order drawn. */
    private static List<String> distinct(SplittableRandom r, String[] xs, int n) {
        List<String> out = new ArrayList<>();
        while (out.size() < n) { String x = pick(r, xs); if (!out.contains(x)) out.add(x); }
        return out;
    }
}
