package dev.hyperterse.project;

import dev.hyperterse.model.AdapterCheck;
import dev.hyperterse.model.Counted;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.model.ToolExposure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compiles a project folder into an immutable {@link Project}: the root {@code .hyperterse}
 * (merged over the packaged defaults), the env file, adapters, then tools. Everything that can
 * be checked before serving is checked here, and every problem is reported at once, sorted by
 * file and line.
 *
 * <p>Reads files synchronously: call it before serving or on a worker thread, never on an event
 * loop. An instance holds no state between calls and may be shared.
 */
public final class ProjectCompiler {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectCompiler.class);
    static final String ROOT_FILE = ".hyperterse";

    private final Map<String, String> processEnvironment;
    private final Set<String> connectorTypes;
    private final Set<String> authPlugins;
    private final DisplayPaths paths;
    private final YamlNode defaults;
    private final AdapterCheck adapterCheck;
    private final boolean missingVariablesAreWarnings;

    /**
     * @param processEnvironment the real environment ({@code System.getenv()}); it wins over env files
     * @param connectorTypes     connector keywords that exist ({@code sqlite}, {@code postgres}, …)
     * @param authPlugins        auth plugin keywords that exist ({@code allow_all}, {@code api_key}, …)
     * @throws IllegalStateException when the packaged defaults are missing or broken (a broken jar)
     */
    public ProjectCompiler(Map<String, String> processEnvironment, Set<String> connectorTypes,
                           Set<String> authPlugins) {
        this(processEnvironment, connectorTypes, authPlugins, Path.of(""));
    }

    /** @param workingDir what paths in messages are shown relative to */
    ProjectCompiler(Map<String, String> processEnvironment, Set<String> connectorTypes, Set<String> authPlugins,
                    Path workingDir) {
        this.processEnvironment = Map.copyOf(processEnvironment);
        this.connectorTypes = lowerCase(connectorTypes);
        this.authPlugins = lowerCase(authPlugins);
        this.paths = new DisplayPaths(workingDir);
        this.defaults = PackagedDefaults.load();
        this.adapterCheck = AdapterCheck.NONE;
        this.missingVariablesAreWarnings = false;
    }

    private ProjectCompiler(ProjectCompiler base, AdapterCheck adapterCheck, boolean missingVariablesAreWarnings) {
        this(base, base.defaults, adapterCheck, missingVariablesAreWarnings);
    }

    private ProjectCompiler(ProjectCompiler base, YamlNode defaults, AdapterCheck adapterCheck,
                            boolean missingVariablesAreWarnings) {
        this.processEnvironment = base.processEnvironment;
        this.connectorTypes = base.connectorTypes;
        this.authPlugins = base.authPlugins;
        this.paths = base.paths;
        this.defaults = defaults;
        this.adapterCheck = adapterCheck;
        this.missingVariablesAreWarnings = missingVariablesAreWarnings;
    }

    /**
     * This compiler, also reading each adapter's connection string and options as its connector
     * will at connect time: what that reading refuses is a configuration error at the adapter's
     * file and line, and options the connector does not use are warnings, for {@code validate} and
     * {@code start} alike.
     */
    public ProjectCompiler withAdapterCheck(AdapterCheck check) {
        return new ProjectCompiler(this, check, missingVariablesAreWarnings);
    }

    /**
     * This compiler, reporting an environment variable that is not set as a warning instead of an
     * error, as Hyperterse resolves them only when it connects and executes: for {@code validate}
     * in CI, which runs without the deployment's secrets. The compiled project then has such a
     * variable as an empty value; it is for checking only, never for serving.
     */
    public ProjectCompiler withMissingVariablesAsWarnings() {
        return new ProjectCompiler(this, adapterCheck, true);
    }

    /**
     * This compiler, with the operator's settings between the packaged defaults and each project's
     * {@code .hyperterse}: a project still overrides them, and a wrong operator value is reported
     * naming the file, property or variable it came from.
     */
    public ProjectCompiler withOperatorLayer(OperatorLayer layer) {
        YamlNode operator = layer.settings();
        return operator == null ? this : new ProjectCompiler(this, YamlDocument.merge(defaults, operator),
                adapterCheck, missingVariablesAreWarnings);
    }

    /**
     * One root setting as written, the project's {@code .hyperterse} over the operator's settings
     * over the packaged defaults, read without compiling, checking or logging anything: for the
     * settings that must act before the project is compiled (the log format and level, which
     * compiling already logs under). Null when no layer writes it or the root file cannot be read;
     * compiling then says why.
     *
     * @param path the project folder, or its {@code .hyperterse} file
     * @param key  the setting's path of keys, such as {@code observability, logs, format}
     */
    public String writtenRootSetting(Path path, String... key) {
        Path given = path.toAbsolutePath().normalize();
        Path rootFile = Files.isDirectory(given) ? given.resolve(ROOT_FILE) : given;
        YamlNode project = null;
        if (Files.isRegularFile(rootFile)) {
            Problems silent = new Problems(org.slf4j.helpers.NOPLogger.NOP_LOGGER, warning -> {
            });
            String text = TextFiles.read(rootFile, rootFile, silent);
            project = text == null ? null : YamlDocument.parse(text, rootFile, silent);
            if (silent.hasErrors()) {
                return null;
            }
        }
        return YamlDocument.writtenText(YamlDocument.merge(defaults, project), key);
    }

    /**
     * @param path the project folder, or its {@code .hyperterse} file
     * @throws ProjectException with every configuration error found
     */
    public Project compile(Path path) throws ProjectException {
        return compile(path, warning -> {
        });
    }

    /**
     * Like {@link #compile(Path)}, also handing each warning (already logged) to {@code warnings},
     * for a {@code validate} command that prints them.
     */
    public Project compile(Path path, Consumer<ConfigProblem> warnings) throws ProjectException {
        Problems problems = new Problems(LOG, warnings, missingVariablesAreWarnings);
        Path given = path.toAbsolutePath().normalize();
        if (!Files.exists(given)) {
            problems.error(paths.show(given), 0, "no such project folder or file");
            problems.throwIfAny();
        }
        Path rootFile = Files.isDirectory(given) ? given.resolve(ROOT_FILE) : given;
        Path projectDir = rootFile.getParent();
        Path rootShown = paths.show(rootFile);
        if (!Files.isRegularFile(rootFile)) {
            if (!legacyFileBeside(rootFile, problems)) {
                problems.error(rootShown, 0, "no " + ROOT_FILE + " file: a project folder needs one, with at least 'name'");
            }
            problems.throwIfAny();
        }

        EnvFiles.Loaded envFile = EnvFiles.load(projectDir, paths, problems);
        Map<String, String> environment = new LinkedHashMap<>(envFile.values());
        environment.putAll(processEnvironment);
        EnvSubstitution env = new EnvSubstitution(environment);
        ScriptFiles scriptFiles = new ScriptFiles(projectDir, paths);
        AuthBlocks authBlocks = new AuthBlocks(authPlugins, env, scriptFiles, problems);

        String rootText = TextFiles.read(rootFile, rootShown, problems);
        YamlNode rootNode = rootText == null ? null : YamlDocument.parse(rootText, rootShown, problems);
        if (rootNode instanceof YamlNode.Scalar && ((YamlNode.Scalar) rootNode).isNull()) {
            rootNode = YamlNode.Mapping.empty(rootShown, 1);
        }
        if (rootNode != null && !(rootNode instanceof YamlNode.Mapping)) {
            problems.error(rootShown, rootNode.line(), "expected a mapping of keys at the top of the file, got "
                    + YamlNode.describe(rootNode));
            rootNode = null;
        }
        if (rootNode == null) {
            // without a readable root config the folders are unknown: nothing further can be checked
            problems.throwIfAny();
        }
        List<YamlNode.Entry> legacy = LegacyConfig.markers((YamlNode.Mapping) rootNode);
        if (!legacy.isEmpty()) {
            // read as 2.x it would be a flood of unknown keys and a project with nothing to serve
            problems.error(rootShown, legacy.get(0).keyLine(), LegacyConfig.message(legacy));
            problems.throwIfAny();
        }
        RootConfigReader.RootConfig root = new RootConfigReader(env, authBlocks, paths, problems)
                .read(YamlDocument.merge(defaults, rootNode), projectDir, rootShown);

        Set<String> unreadableAdapters = new HashSet<>();
        Map<String, AdapterDef> adapters = readAdapters(root.config().folders().adaptersDir(), projectDir, env,
                unreadableAdapters, problems);
        ToolReader toolReader = new ToolReader(root, adapters, unreadableAdapters, env, authBlocks,
                scriptFiles, paths, problems);
        Found found = new Found();
        Map<String, ToolDef> tools = readTools(root.config().folders().toolsDir(), root.config().exposure(), toolReader,
                found, problems);
        DerivedStatements derived = new DerivedStatements(root, adapters, unreadableAdapters, env, problems);
        ArgumentReader arguments = new ArgumentReader(derived, problems);
        Map<String, PromptDef> prompts = readPrompts(root.config().folders().promptsDir(),
                new PromptReader(root, authBlocks, arguments, problems), found, problems);
        List<ResourceDef> resources = readResources(root.config().folders().resourcesDir(),
                new ResourceReader(root, authBlocks, arguments, derived, problems), found, problems);
        if (root.config().folders().toolsDir() != null && found.tools == 0 && found.others > 0) {
            // a project of prompts or resources may have an empty tools folder; said in case its
            // tool files were meant to be found (a config.yaml instead of a config.terse)
            problems.warn(paths.show(root.config().folders().toolsDir()), 0,
                    "no tools: no config.terse file below the tools folder");
        }
        if (found.tools + found.others == 0 && root.config().folders().rootDir() != null) {
            // as Hyperterse 2.3+: prompts or resources alone are a project; nothing at all is not
            problems.error(rootShown, 0, "the project defines no tools, prompts or resources, so there is "
                    + "nothing to serve: add a tool (" + shownIn(root.folders().tools(), "<tool>/config.terse")
                    + "), a prompt (" + shownIn(root.folders().prompts(), "<prompt>.terse") + ") or a resource ("
                    + shownIn(root.folders().resources(), "<resource>/config.terse") + ")");
        }

        if (problems.hasErrors()) {
            problems.throwIfAny(new Project(root.config(), adapters, tools, environment, prompts, resources,
                    derived.tools()));
        }
        LOG.debug("compiled project '{}' from {}: {}, {}, {}, {}{}", root.config().name(), rootShown,
                Counted.of(adapters.size(), "adapter"), Counted.of(tools.size(), "tool"),
                Counted.of(prompts.size(), "prompt"), Counted.of(resources.size(), "resource"),
                envFile.file() == null ? "" : ", env file " + paths.show(envFile.file()));
        if (problems.missingVariablesAreWarnings()) {
            // reported as warnings: empty stand-ins let the statements and scripts be checked further
            problems.missingVariableNames().forEach(name -> environment.putIfAbsent(name, ""));
        }
        return new Project(root.config(), adapters, tools, environment, prompts, resources, derived.tools());
    }

    /** How many tool files, and prompt and resource files, were found, readable or not. */
    private static final class Found {
        int tools;
        int others;
    }

    private String shownIn(Path folder, String file) {
        return folder == null ? file : paths.show(folder) + "/" + file;
    }

    /**
     * When a folder has no {@code .hyperterse} but holds a Hyperterse 1.x single-file config
     * (such as {@code config.terse}), reports that file as one, and returns true.
     */
    private boolean legacyFileBeside(Path rootFile, Problems problems) {
        Path dir = rootFile.getParent();
        if (dir == null || !rootFile.getFileName().toString().equals(ROOT_FILE) || !Files.isDirectory(dir)) {
            return false;
        }
        List<Path> candidates;
        try (Stream<Path> list = Files.list(dir)) {
            candidates = list.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".terse"))
                    .sorted().collect(Collectors.toList());
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
        for (Path file : candidates) {
            Path shown = paths.show(file);
            // a file that does not read as YAML is no 1.x config: its problems are not this project's
            Problems quiet = new Problems(LOG, warning -> {
            });
            String text = TextFiles.read(file, shown, quiet);
            YamlNode node = text == null ? null : YamlDocument.parse(text, shown, quiet);
            if (node instanceof YamlNode.Mapping && !quiet.hasErrors()) {
                List<YamlNode.Entry> legacy = LegacyConfig.markers((YamlNode.Mapping) node);
                if (!legacy.isEmpty()) {
                    problems.error(shown, legacy.get(0).keyLine(), LegacyConfig.message(legacy)
                            + "; this folder has no " + ROOT_FILE + " file");
                    return true;
                }
            }
        }
        return false;
    }

    private Map<String, PromptDef> readPrompts(Path promptsDir, PromptReader reader, Found found, Problems problems) {
        Map<String, PromptDef> prompts = new LinkedHashMap<>();
        if (promptsDir == null) {
            return prompts;
        }
        Map<String, Path> definedIn = new LinkedHashMap<>();
        List<Path> files = find(promptsDir, name -> name.toLowerCase(Locale.ROOT).endsWith(".terse"), problems);
        found.others += files.size();
        for (Path file : files) {
            Path shown = paths.show(file);
            YamlNode node = parse(file, shown, problems);
            if (node == null) {
                continue;
            }
            PromptReader.ReadPrompt read = reader.read(file, shown, node);
            String name = read.prompt().name();
            Path first = definedIn.putIfAbsent(name, shown);
            if (first != null) {
                problems.error(read.nameLocation().file(), read.nameLocation().line(), "duplicate prompt name '"
                        + name + "': defined in " + first + " and in " + shown);
            } else {
                prompts.put(name, read.prompt());
            }
        }
        return prompts;
    }

    private List<ResourceDef> readResources(Path resourcesDir, ResourceReader reader, Found found, Problems problems) {
        List<ResourceDef> resources = new ArrayList<>();
        if (resourcesDir == null) {
            return resources;
        }
        Map<String, Path> definedIn = new LinkedHashMap<>();
        List<Path> files = find(resourcesDir, name -> name.equalsIgnoreCase("config.terse"), problems);
        found.others += files.size();
        for (Path file : files) {
            Path shown = paths.show(file);
            YamlNode node = parse(file, shown, problems);
            if (node == null) {
                continue;
            }
            ResourceDef resource = reader.read(file, shown, node);
            if (resource == null) {
                continue;
            }
            String kind = resource.isTemplate() ? "uri_template" : "uri";
            Path first = definedIn.putIfAbsent(kind + " " + resource.address(), shown);
            if (first != null) {
                problems.error(shown, 0, "duplicate " + kind + " '" + resource.address() + "': defined in " + first
                        + " and in " + shown);
            } else {
                resources.add(resource);
            }
        }
        return resources;
    }

    private Map<String, AdapterDef> readAdapters(Path adaptersDir, Path projectDir, EnvSubstitution env,
                                                 Set<String> unreadable, Problems problems) {
        Map<String, AdapterDef> adapters = new LinkedHashMap<>();
        if (adaptersDir == null || !Files.isDirectory(adaptersDir)) {
            return adapters;
        }
        AdapterReader reader = new AdapterReader(connectorTypes, env, problems, adapterCheck, projectDir);
        Map<String, Path> definedIn = new LinkedHashMap<>();
        for (Path file : find(adaptersDir, name -> name.toLowerCase(Locale.ROOT).endsWith(".terse"), problems)) {
            Path shown = paths.show(file);
            YamlNode node = parse(file, shown, problems);
            if (node == null) {
                String fileName = file.getFileName().toString();
                unreadable.add(fileName.substring(0, fileName.lastIndexOf('.')));
                continue;
            }
            AdapterReader.ReadAdapter read = reader.read(file, shown, node);
            String name = read.adapter().name();
            Path first = definedIn.putIfAbsent(name, shown);
            if (first != null) {
                problems.error(read.nameLocation().file(), read.nameLocation().line(), "duplicate adapter name '"
                        + name + "': defined in " + first + " and in " + shown);
            } else {
                adapters.put(name, read.adapter());
            }
        }
        return adapters;
    }

    private Map<String, ToolDef> readTools(Path toolsDir, ToolExposure exposure, ToolReader reader, Found found,
                                           Problems problems) {
        Map<String, ToolDef> tools = new LinkedHashMap<>();
        if (toolsDir == null) {
            // absent, as in a project of prompts or resources only, or named but missing (reported)
            return tools;
        }
        List<Path> files = find(toolsDir, name -> name.equalsIgnoreCase("config.terse"), problems);
        found.tools += files.size();
        Map<String, Path> definedIn = new LinkedHashMap<>();
        List<ToolReader.ReadTool> read = new ArrayList<>();
        for (Path file : files) {
            Path shown = paths.show(file);
            YamlNode node = parse(file, shown, problems);
            if (node == null) {
                continue;
            }
            ToolReader.ReadTool tool = reader.read(file, shown, toolsDir, node);
            String name = tool.tool().name();
            Path first = definedIn.putIfAbsent(name, shown);
            if (first != null) {
                problems.error(tool.nameLocation().file(), tool.nameLocation().line(), "duplicate tool name '" + name
                        + "': defined by " + first + " and by " + shown);
            } else {
                tools.put(name, tool.tool());
                read.add(tool);
                if (exposure == ToolExposure.BOTH && (name.equals("search") || name.equals("execute"))) {
                    problems.warn(tool.nameLocation().file(), tool.nameLocation().line(), "tool '" + name
                            + "' has a meta-tool's name: with tools.exposure both, tools/list and tools/call"
                            + " by name reach the meta-tool, and this tool only through execute; rename it");
                }
            }
        }
        for (ToolReader.ReadTool tool : read) {
            for (YamlNode.Scalar target : tool.invalidates()) {
                if (!tools.containsKey(target.text())) {
                    problems.error(target.file(), target.line(), "'invalidates' of tool '" + tool.tool().name()
                            + "' names unknown tool '" + target.text() + "'"
                            + Suggestions.didYouMean(target.text(), tools.keySet()));
                }
            }
        }
        return tools;
    }

    private static YamlNode parse(Path file, Path shown, Problems problems) {
        String text = TextFiles.read(file, shown, problems);
        return text == null ? null : YamlDocument.parse(text, shown, problems);
    }

    /** Regular files below {@code dir} whose name matches, sorted by path as Hyperterse sorts them. */
    private List<Path> find(Path dir, Predicate<String> fileName, Problems problems) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(f -> fileName.test(f.getFileName().toString()))
                    .sorted(Comparator.comparing(Path::toString))
                    .collect(Collectors.toList());
        } catch (IOException | UncheckedIOException e) {
            problems.error(paths.show(dir), 0, "cannot list the folder: " + e.getMessage());
            return List.of();
        }
    }

    private static Set<String> lowerCase(Set<String> words) {
        Set<String> out = new TreeSet<>();
        for (String w : words) {
            out.add(w.toLowerCase(Locale.ROOT));
        }
        return Set.copyOf(out);
    }
}
