package dev.hyperterse.testing;

import java.nio.file.Path;

/**
 * A project shaped like the Hyperterse demo's prompts and resources: prompts
 * {@code incident-update} and {@code summarize-release}; resources {@code release-notes} (file),
 * {@code service-info} (text); templates {@code order-by-id} (text_template) and
 * {@code order-file-by-id} (file_template). Its {@code .env} holds a secret no resource may read.
 */
public final class DemoProject {
    public static final String SECRET = "s3cr3t-value-never-served";
    public static final String RELEASE_NOTES = "# Release 2.3\n\n- Prompts and resources\n";

    private DemoProject() {
    }

    public static Path write(Path dir) {
        write(dir, ".hyperterse", "name: demo\nversion: 2.3.0\n");
        write(dir, ".env", "DEMO_SECRET=" + SECRET + "\n");
        write(dir, "app/adapters/demo.terse", "connector: sqlite\nconnection_string: 'sqlite:data/demo.db'\n");
        write(dir, "app/tools/status/config.terse", "description: Service status\nuse: demo\nstatement: SELECT 1 AS ok\n");
        write(dir, "app/prompts/incident-update.terse", String.join("\n",
                "title: Incident update",
                "description: Draft a status update for an ongoing incident.",
                "arguments:",
                "  service:",
                "    title: Service",
                "    description: The affected service",
                "    required: true",
                "    completion: [checkout, catalog, payments, search]",
                "  severity:",
                "    description: How bad it is",
                "    default: sev3",
                "    completion: [sev1, sev2, sev3]",
                "messages:",
                "  - role: system",
                "    text: You write calm, factual incident updates.",
                "  - role: user",
                "    text: \"Write an update about the {{ severity }} incident on {{ service }}.\"",
                ""));
        write(dir, "app/prompts/release/summarize-release.terse", String.join("\n",
                "name: summarize-release",
                "description: Summarize a release for customers.",
                "arguments:",
                "  version:",
                "    required: true",
                "messages:",
                "  - role: user",
                "    text: Summarize release {{ version }} in three bullet points.",
                "  - role: assistant",
                "    text: \"Here is the summary of {{version}}:\"",
                ""));
        write(dir, "app/resources/release-notes/config.terse", String.join("\n",
                "uri: docs://release-notes",
                "title: Release notes",
                "description: What changed in the latest release.",
                "file: notes.md",
                ""));
        write(dir, "app/resources/release-notes/notes.md", RELEASE_NOTES);
        write(dir, "app/resources/service-info/config.terse", String.join("\n",
                "uri: info://service",
                "description: Where the service runs.",
                "text: The service runs in eu-west-1.",
                ""));
        write(dir, "app/resources/order-by-id/config.terse", String.join("\n",
                "uri_template: shop://orders/{id}",
                "description: One order by its id.",
                "text_template: \"Order {{ id }} is on its way.\"",
                "arguments:",
                "  id:",
                "    description: The order id",
                "    completion: [\"1001\", \"1002\", \"2001\"]",
                ""));
        write(dir, "app/resources/order-file-by-id/config.terse", String.join("\n",
                "uri_template: shop://order-files/{id}",
                "description: An order's document.",
                "mime_type: text/markdown",
                "file_template: \"orders/{{ id }}\"",
                ""));
        write(dir, "app/resources/order-file-by-id/orders/1001", "# Order 1001\n\nTwo books.\n");
        return dir;
    }

    public static Path write(Path dir, String relative, String content) {
        return ProjectFiles.write(dir, relative, content);
    }
}
