// SkillOpt4J session imports. Plain JShell, from the repository's top directory:
//   jshell --startup DEFAULT --startup skillopt.jsh --class-path target/skillopt4j-0.1.0-all.jar
// (`./skillopt jsh --write FILE` writes a copy elsewhere.) The SkillOpt4J kernel runs it at start.
import io.skillopt4j.notebook.*;
import io.skillopt4j.frames.*;
import io.skillopt4j.config.*;
import io.skillopt4j.backend.*;
import io.skillopt4j.env.*;
import io.skillopt4j.sim.*;
import tech.tablesaw.api.*;
import tech.tablesaw.aggregate.AggregateFunctions;
import java.nio.file.*;
import static io.skillopt4j.notebook.Display.display;
import static io.skillopt4j.notebook.Display.html;
import static io.skillopt4j.notebook.Display.markdown;
// Teach IJava/JJava/our kernel to render tables, plots, skills and diffs (no-op in plain JShell).
{ Display.register(); }
