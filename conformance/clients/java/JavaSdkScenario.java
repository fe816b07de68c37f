import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The client scenario of conformance/clients/run.sh with the MCP Java SDK (io.modelcontextprotocol.sdk:mcp
 * 2.1.0, a test dependency of the build), run by the source launcher on the build's test classpath:
 * {@code java -cp CLASSPATH JavaSdkScenario.java URL}. The SDK speaks the session generation
 * (initialize, then a 2025-11-25 session). Prints one line per check (PASS, FAIL or N/A, the client and
 * the check's name) and exits 1 if any check failed; the checks and their names are the same for every
 * client of run.sh.
 */
public class JavaSdkScenario {
    static final String NAME = "java-sdk";
    static final Set<String> PROJECT_TOOLS = Set.of("get-customer", "list-orders", "order-stats", "search-products");
    static int passed, failed, notApplicable;
    static final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();

    /** The check cannot apply to this client; the message says why. */
    static final class NotApplicable extends RuntimeException {
        NotApplicable(String why) {
            super(why);
        }
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: java -cp CLASSPATH JavaSdkScenario.java URL");
            System.exit(2);
        }
        URI url = URI.create(args[0]);
        McpSyncClient client = connect(url, true);
        check("connect", () -> {
            McpSchema.InitializeResult init = client.initialize();
            expect("2025-11-25".equals(init.protocolVersion()), "negotiated " + init.protocolVersion());
            expect(init.serverInfo() != null && init.serverInfo().name() != null, "no server info");
            return "initialize: protocol " + init.protocolVersion() + ", server " + init.serverInfo().name() + " "
                    + init.serverInfo().version();
        });
        if (failed == 0) {
            scenario(client);
            client.closeGracefully();
            check("execute-cold", () -> {
                // a fresh client whose first call after initialize is execute, before any tools/list
                McpSyncClient cold = connect(url, false);
                try {
                    cold.initialize();
                    McpSchema.CallToolResult result = execute(cold, "get-customer", Map.of("customer_id", 3));
                    expect(!Boolean.TRUE.equals(result.isError()), text(result));
                    JsonArray rows = new JsonArray(text(result));
                    expect("Alan Turing".equals(rows.getJsonObject(0).getString("name")), "rows " + rows);
                    return "get-customer through execute before tools/list";
                } finally {
                    cold.closeGracefully();
                }
            });
        }
        System.out.println(NAME + ": " + passed + " passed, " + failed + " failed, " + notApplicable + " n/a");
        System.exit(failed == 0 ? 0 : 1);
    }

    static McpSyncClient connect(URI url, boolean logging) {
        String base = url.getScheme() + "://" + url.getAuthority();
        McpClient.SyncSpec spec = McpClient.sync(HttpClientStreamableHttpTransport.builder(base)
                        .endpoint(url.getPath()).build())
                .requestTimeout(Duration.ofSeconds(30))
                .clientInfo(McpSchema.Implementation.builder("hyperterse-client-scenario", "1.0.0").build())
                // validate structuredContent against each tool's listed outputSchema
                .enableCallToolSchemaCaching(true);
        if (logging) {
            spec.loggingConsumer(logs::add);
        }
        return spec.build();
    }

    static void scenario(McpSyncClient client) {
        check("capabilities", () -> {
            McpSchema.ServerCapabilities caps = client.getServerCapabilities();
            expect(caps.tools() != null && caps.prompts() != null && caps.resources() != null
                    && caps.completions() != null && caps.logging() != null, "capabilities " + caps);
            return "tools, prompts, resources, completions, logging";
        });
        check("tools-list", () -> {
            List<McpSchema.Tool> tools = new ArrayList<>();
            int pages = 0;
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = client.listTools(cursor);
                pages++;
                tools.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null);
            List<String> names = tools.stream().map(McpSchema.Tool::name).toList();
            expect(names.subList(0, 2).equals(List.of("search", "execute")), "tools start " + names);
            expect(names.size() == 6 && Set.copyOf(names.subList(2, 6)).equals(PROJECT_TOOLS), "tools " + names);
            expect(pages == 2, pages + " pages of at most 3 tools, expected 2");
            // listTools() without a cursor collects every page itself
            expect(client.listTools().tools().stream().map(McpSchema.Tool::name).toList().equals(names),
                    "listTools() differs from the pages");
            expect(tools.stream().anyMatch(t -> t.name().equals("get-customer") && t.outputSchema() != null),
                    "get-customer lists no outputSchema");
            return names.size() + " tools in " + pages + " pages";
        });
        check("search", () -> {
            McpSchema.CallToolResult result = call(client, "search", Map.of("query", "customer by id"));
            expect(!Boolean.TRUE.equals(result.isError()), text(result));
            JsonArray hits = new JsonObject(text(result)).getJsonArray("tools");
            expect(!hits.isEmpty() && "get-customer".equals(hits.getJsonObject(0).getString("name")), "hits " + hits);
            expect(new JsonObject(asMap(result.structuredContent())).equals(new JsonObject().put("tools", hits)),
                    "structuredContent differs from the text");
            return hits.size() + " hits, first get-customer; structuredContent checked against search's outputSchema";
        });
        check("execute", () -> {
            McpSchema.CallToolResult result = execute(client, "list-orders", Map.of("status", "pending"));
            expect(!Boolean.TRUE.equals(result.isError()), text(result));
            JsonArray rows = new JsonArray(text(result));
            List<Object> ids = rows.stream().map(r -> ((JsonObject) r).getValue("id")).toList();
            expect(ids.equals(List.of(9, 6, 3)), "rows " + rows);
            expect(new JsonObject(asMap(result.structuredContent())).equals(new JsonObject().put("rows", rows)),
                    "structuredContent " + result.structuredContent());
            return "list-orders: " + rows.size() + " rows";
        });
        check("typed-output", () -> {
            // the SDK checks structuredContent against the outputSchema it cached from tools/list
            McpSchema.CallToolResult result = call(client, "get-customer", Map.of("customer_id", 2));
            expect(!Boolean.TRUE.equals(result.isError()), text(result));
            JsonArray rows = new JsonObject(asMap(result.structuredContent())).getJsonArray("rows");
            expect("Grace Hopper".equals(rows.getJsonObject(0).getString("name")), "rows " + rows);
            return "get-customer's structuredContent validated against its outputSchema";
        });
        check("tool-error", () -> {
            McpSchema.CallToolResult result = execute(client, "get-customer", Map.of("customer_id", "abc"));
            expect(Boolean.TRUE.equals(result.isError()), "not an isError result: " + result);
            JsonObject error = new JsonObject(text(result));
            expect("input_validation".equals(error.getString("stage")) && error.getInteger("code") == -32000,
                    "error " + error);
            McpSchema.CallToolResult missing = execute(client, "get-customers", Map.of());
            expect(Boolean.TRUE.equals(missing.isError())
                    && "resolution".equals(new JsonObject(text(missing)).getString("stage")), text(missing));
            // execute's own arguments are its input validation: a result too, coded -32602
            McpSchema.CallToolResult noInputs = call(client, "execute", Map.of("tool", "get-customer"));
            JsonObject bad = new JsonObject(text(noInputs));
            expect(Boolean.TRUE.equals(noInputs.isError()) && "input_validation".equals(bad.getString("stage"))
                    && bad.getInteger("code") == -32602, text(noInputs));
            return "isError: " + error.getString("error");
        });
        check("protocol-error", () -> {
            String unknown = expectRpcError(-32602, () -> call(client, "no-such-tool", Map.of()));
            return "unknown tool name: " + unknown;
        });
        check("unknown-method", () -> {
            throw new NotApplicable("McpSyncClient sends only the methods it models (no raw request)");
        });
        check("prompts", () -> {
            McpSchema.Prompt prompt = client.listPrompts().prompts().stream()
                    .filter(p -> p.name().equals("order-update")).findFirst()
                    .orElseThrow(() -> new AssertionError("no prompt order-update"));
            Map<String, Boolean> arguments = prompt.arguments().stream().collect(Collectors.toMap(
                    McpSchema.PromptArgument::name, a -> Boolean.TRUE.equals(a.required())));
            expect(arguments.equals(Map.of("order_id", true, "tone", false)), "arguments " + prompt.arguments());
            McpSchema.GetPromptResult got = client.getPrompt(McpSchema.GetPromptRequest.builder("order-update")
                    .arguments(Map.of("order_id", "3", "tone", "formal")).build());
            List<String> texts = got.messages().stream()
                    .map(m -> ((McpSchema.TextContent) m.content()).text()).toList();
            expect(texts.contains("Tell the customer where order 3 is, in a formal tone."), "texts " + texts);
            return "order-update: " + got.messages().size() + " messages";
        });
        check("resources", () -> {
            int resources = client.listResources().resources().size();
            List<String> uris = client.listResourceTemplates().resourceTemplates().stream()
                    .map(McpSchema.ResourceTemplate::uriTemplate).toList();
            expect(uris.contains("shop://orders/{id}"), "templates " + uris);
            McpSchema.ReadResourceResult read = client.readResource(McpSchema.ReadResourceRequest.builder("shop://orders/3").build());
            String text = ((McpSchema.TextResourceContents) read.contents().get(0)).text();
            JsonObject row = new JsonArray(text).getJsonObject(0);
            expect("Grace Hopper".equals(row.getString("customer")) && row.getInteger("id") == 3, "contents " + text);
            return resources + " resources, templates " + uris + ", read shop://orders/3";
        });
        check("completion", () -> {
            List<String> tone = new ArrayList<>(client.completeCompletion(McpSchema.CompleteRequest.builder(
                    McpSchema.PromptReference.builder("order-update").build(),
                    new McpSchema.CompleteRequest.CompleteArgument("tone", "f")).build())
                    .completion().values());
            tone.sort(null);
            expect(tone.equals(List.of("formal", "friendly")), "tone values " + tone);
            List<String> ids = client.completeCompletion(McpSchema.CompleteRequest.builder(
                    new McpSchema.ResourceReference("shop://orders/{id}"),
                    new McpSchema.CompleteRequest.CompleteArgument("id", "1")).build())
                    .completion().values();
            expect(ids.equals(List.of("1", "10")), "id values " + ids);
            return "prompt argument tone: " + tone + "; template argument id: " + ids;
        });
        check("logging", () -> {
            logs.clear();
            client.setLoggingLevel(McpSchema.LoggingLevel.DEBUG);
            McpSchema.CallToolResult result = execute(client, "get-customer", Map.of("customer_id", 1));
            expect(!Boolean.TRUE.equals(result.isError()), text(result));
            // the SDK hands notifications to its consumer on its own threads: wait for them, boundedly
            for (int i = 0; i < 100 && logs.size() < 2; i++) {
                sleep(50);
            }
            List<McpSchema.LoggingLevel> levels = logs.stream().map(McpSchema.LoggingMessageNotification::level).toList();
            expect(levels.contains(McpSchema.LoggingLevel.DEBUG) && levels.contains(McpSchema.LoggingLevel.INFO),
                    "logs " + logs);
            expect(logs.stream().allMatch(l -> "hyperterse".equals(l.logger())), "logs " + logs);
            client.setLoggingLevel(McpSchema.LoggingLevel.EMERGENCY);
            return "logging/setLevel debug, then " + logs.size() + " notifications/message during execute: " + levels;
        });
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String name, Map<String, Object> arguments) {
        return client.callTool(McpSchema.CallToolRequest.builder(name).arguments(arguments).build());
    }

    static McpSchema.CallToolResult execute(McpSyncClient client, String tool, Map<String, Object> inputs) {
        return call(client, "execute", Map.of("tool", tool, "inputs", inputs));
    }

    static void check(String name, Supplier<String> body) {
        try {
            String detail = body.get();
            passed++;
            System.out.println("PASS " + NAME + " " + name + (detail == null ? "" : " (" + detail + ")"));
        } catch (NotApplicable e) {
            notApplicable++;
            System.out.println("N/A  " + NAME + " " + name + ": " + e.getMessage());
        } catch (RuntimeException | AssertionError e) {
            failed++;
            System.out.println("FAIL " + NAME + " " + name + ": " + e);
        }
        System.out.flush();
    }

    static void expect(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    static String expectRpcError(int code, Supplier<?> call) {
        Object result;
        try {
            result = call.get();
        } catch (McpError e) {
            int got = e.getJsonRpcError().code();
            expect(got == code, "JSON-RPC error " + got + " (" + e.getMessage() + "), expected " + code);
            return got + " " + e.getJsonRpcError().message();
        }
        throw new AssertionError("no JSON-RPC error, got " + result);
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object structured) {
        expect(structured instanceof Map, "structuredContent " + structured);
        return (Map<String, Object>) structured;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
