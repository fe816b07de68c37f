package dev.hyperterse.script;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The host side of one context's CommonJS loader. Every decision is made here, where no script
 * can reach: which file a {@code require} means (inside the module folders only, see
 * {@link ModuleFileSystem#moduleFile}), whether it is JSON, how it is parsed and compiled. The
 * bootstrap's part is only to call a compiled module and keep its {@code module} object.
 *
 * <p>A file is loaded only after this loader resolved it in this context, so whatever a script
 * passes to the loader functions, it gets a module the loader itself chose or an error.
 */
final class CommonJsLoader {
    private final ModuleFileSystem files;
    /** Files this context's loader resolved; a context runs on one thread at a time, threads change. */
    private final Set<String> resolved = ConcurrentHashMap.newKeySet();

    CommonJsLoader(ModuleFileSystem files) {
        this.files = files;
    }

    /**
     * {@code hostResolve(specifier, parentFile or null)}: the absolute file, or {@code "!" + message}
     * (the bootstrap throws it as a JavaScript error: a Java exception would reach the script as
     * an opaque host exception). Without a parent only an absolute specifier resolves.
     */
    ProxyExecutable resolve() {
        return args -> {
            try {
                String specifier = args[0].asString();
                Path parent = args.length > 1 && args[1].isString() && resolved.contains(args[1].asString())
                        ? Path.of(args[1].asString()) : files.root().resolve("(no parent)");
                String file = files.resolveRequire(specifier, parent).toString();
                resolved.add(file);
                return file;
            } catch (IOException e) {
                return "!" + failureText(e);
            } catch (RuntimeException e) {
                return "!Cannot find module (" + e.getClass().getSimpleName() + ")";
            }
        };
    }

    /**
     * {@code hostLoad(file)}: the module's wrapper function (see
     * {@link ModuleFileSystem#commonJsSource}), or {@code "!" + message}. A syntax error names
     * the file, line and column but never quotes the source.
     */
    ProxyExecutable load() {
        return args -> {
            String file = args[0].isString() ? args[0].asString() : "";
            if (!resolved.contains(file)) {
                return "!" + ModuleFileSystem.REFUSED;
            }
            try {
                // checked again: the file may have been replaced since it was resolved
                Path real = files.moduleFile(Path.of(file));
                return Context.getCurrent().eval(files.commonJsSource(real));
            } catch (IOException e) {
                return "!" + failureText(e);
            } catch (PolyglotException e) {
                if (e.isSyntaxError()) {
                    return "!" + ScriptErrors.withoutSource(String.valueOf(e.getMessage())).replace(files.root() + "/", "");
                }
                throw e;
            }
        };
    }

    private String failureText(IOException e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
            reason = ((FileSystemException) e).getReason();
        }
        return reason.replace(files.root() + "/", "");
    }
}
