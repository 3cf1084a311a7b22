package io.skillopt4j.cli;

import io.skillopt4j.config.ConfigRequest;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The picocli-free {@code train} path builds exactly picocli's request, and leaves everything else to picocli. */
class FastTrainTest {
    static final String F = ConfigCommandTest.SEARCHQA;

    private static ConfigRequest viaPicocli(String... args) {
        CommandLine train = TrainCommand.commandLine();
        CommandLine.ParseResult pr = train.parseArgs(List.of(args).subList(1, args.length).toArray(String[]::new));
        return ConfigOptions.train().request(pr);
    }

    private static ConfigRequest fast(String... args) {
        FastTrain.Parsed p = FastTrain.parse(args);
        assertNotNull(p, String.join(" ", args));
        return ConfigOptions.train().request(p.config(), p.items(), p.flags()::get);
    }

    @Test
    void plainArgumentsGiveTheSameRequestAsPicocli() {
        List<String[]> cases = List.of(
                new String[] {"train", "--config", F},
                new String[] {"train", "--config", F, "--cfg-options", "train.batch_size=5", "env.workers=2", "a.b=-3"},
                new String[] {"train", "--cfg-options", "x.y=1", "--config", F, "--cfg-options", "train.num_epochs=2"},
                new String[] {"train", "--config", F, "--batch_size", "7", "--backend", "claude_code_exec", "--batch_size", "9"},
                new String[] {"train", "--force-new", "--config", F, "--use_gate", "false", "--extend-epochs"},
                new String[] {"train", "--config", F, "--cfg-options", "k.v=-1.5", "--force-new"});
        for (String[] c : cases) assertEquals(viaPicocli(c), fast(c), String.join(" ", c));
    }

    @Test
    void anythingElseIsLeftToPicocli() {
        List<String[]> cases = List.of(
                new String[] {"train", "--help"},
                new String[] {"train", "--config", F, "--version"},
                new String[] {"train", "--conf", F},                       // abbreviation
                new String[] {"train", "--config=" + F, "--batch_size", "1"},
                new String[] {"train", "--config", "@args.txt", "--batch_size", "1"},
                new String[] {"train", "--config", F, "--cfg-options"},    // no value
                new String[] {"train", "--config", F, "--batch_size"},
                new String[] {"train", "--config", F, "--batch_size", "-1"},
                new String[] {"train", "--config", F, "--force-new", "yes"},
                new String[] {"train", "--config", F, "--no_such_flag", "1"},
                new String[] {"train", "--config", F, "positional"},
                new String[] {"train", "--config", F, "--", "x"},
                new String[] {"train", "--batch_size", "3", "--cfg-options", "a.b=1"}, // --config is required
                new String[] {"eval", "--config", F});
        for (String[] c : cases) assertNull(FastTrain.parse(c), String.join(" ", c));
    }

    @Test
    void aBadValueIsOneLineAndExitTwoLikePicocli() {
        StringWriter out = new StringWriter(), err = new StringWriter();
        Integer rc = FastTrain.run(new String[] {"train", "--config", F, "--batch_size", "many"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, rc);
        StringWriter err2 = new StringWriter();
        CommandLine cl = Main.commandLine(List.of(TrainCommand::commandLine));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err2, true));
        assertEquals(2, cl.execute("train", "--config", F, "--batch_size", "many"));
        assertEquals(err2.toString(), err.toString());
        assertTrue(err.toString().startsWith("error: "), err.toString());
    }
}
