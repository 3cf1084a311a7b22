package io.skillopt4j.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {
    @Test void everyTrainingPathCommandIsTheSameCommandTheFullTreeHas() {
        CommandLine full = Main.commandLine();
        for (Map.Entry<String, Supplier<Object>> e : Main.TRAINING_PATH.entrySet()) {
            CommandLine lean = Main.commandLine(List.of(e.getValue()));
            assertEquals(List.of(e.getKey()), List.copyOf(lean.getSubcommands().keySet()), e.getKey());
            CommandLine inFull = full.getSubcommands().get(e.getKey());
            assertNotNull(inFull, e.getKey() + " is missing from Main.COMMANDS");
            CommandLine alone = lean.getSubcommands().get(e.getKey());
            assertEquals(inFull.getCommandSpec().userObject().getClass(), alone.getCommandSpec().userObject().getClass());
            assertEquals(inFull.getCommandSpec().optionsMap().keySet(), alone.getCommandSpec().optionsMap().keySet(), e.getKey());
            assertEquals(inFull.getSubcommands().keySet(), alone.getSubcommands().keySet(), e.getKey());
        }
    }

    @Test void aTrainingPathCommandInvokedAloneKeepsItsHelpAndErrors() {
        CliRun help = CliRun.run("train", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("Usage: skillopt train"), help.out());
        CliRun bad = CliRun.run("eval", "--no-such-flag");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("Try 'skillopt eval --help'"), bad.err());
        CliRun top = CliRun.run("--help");
        assertTrue(top.out().contains("kernel") && top.out().contains("train"), top.out());
    }

    @Test void theVersionAloneIsPrintedWithoutBuildingTheSubcommandsAndTheSameEitherWay() {
        for (String flag : List.of("--version", "-V")) {
            CliRun v = CliRun.run(flag);
            assertEquals(0, v.code());
            assertTrue(v.out().matches("skillopt4j \\S+\\R"), v.out());
        }
        java.io.StringWriter full = new java.io.StringWriter();
        CommandLine tree = Main.commandLine();
        tree.setOut(new java.io.PrintWriter(full, true));
        assertEquals(0, tree.execute("--version"));
        assertEquals(full.toString(), CliRun.run("--version").out(), "the full command tree prints the same");
    }
}
