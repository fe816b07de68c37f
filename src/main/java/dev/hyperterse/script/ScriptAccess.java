package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a project's scripts may reach besides their own code.
 *
 * @param moduleFolders folders module files may be loaded from, besides the folder of each script
 *                      a tool names and the project's {@code node_modules} (a project passes its
 *                      {@code root} folder, where tools and shared script folders live)
 * @param fetch         where {@code fetch} may go
 */
public record ScriptAccess(List<Path> moduleFolders, FetchRules fetch) {
    public ScriptAccess {
        moduleFolders = List.copyOf(moduleFolders);
    }

    /** These folders plus the folder of every script. */
    static Set<Path> foldersWith(List<Path> folders, Collection<ScriptRef> scripts) {
        Set<Path> all = new LinkedHashSet<>(folders);
        for (ScriptRef script : scripts) {
            Path parent = script.file().toAbsolutePath().normalize().getParent();
            if (parent != null) {
                all.add(parent);
            }
        }
        return all;
    }
}
