package dev.hyperterse.server;

import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scripts example's chart-values tool, as an agent's client sees it: a PNG it draws (read back
 * with the JDK's PNG decoder), progress per bar, and a question before a chart larger than a screen.
 */
class ChartExampleTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> RunningServer.start(
            RunningServer.copyExample("scripts", scratch)));
    static McpSyncClient client;
    static final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    static final List<McpSchema.ElicitRequest> asked = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void connect() {
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(60), spec -> spec
                .progressConsumer(progress::add)
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> {
                    asked.add(request);
                    return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("draw_large", false));
                }));
    }

    @AfterAll
    static void disconnect() {
        McpSdk.close(client);
    }

    private static BufferedImage image(McpSchema.CallToolResult result) throws Exception {
        McpSchema.ImageContent image = assertInstanceOf(McpSchema.ImageContent.class, result.content().get(1));
        assertEquals("image/png", image.mimeType());
        BufferedImage png = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.data())));
        assertNotNull(png, "a PNG the JDK can read");
        return png;
    }

    @Test
    void drawsABarChartThatAPngDecoderReadsAndReportsEachBar() throws Exception {
        McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder().name("execute")
                .arguments(Map.of("tool", "chart-values", "inputs", Map.of("values", List.of(1, 3, 2))))
                .progressToken("chart-1").build());
        assertTrue(result.isError() == null || !result.isError(), result::toString);
        assertEquals("A 320×160 bar chart of 3 values (largest 3).",
                ((McpSchema.TextContent) result.content().get(0)).text());
        BufferedImage png = image(result);
        assertEquals(320, png.getWidth());
        assertEquals(160, png.getHeight());
        int bar = 0x2e6cb5;
        int white = 0xffffff;
        // the middle bar (the largest) reaches the top; the first is a third of it
        assertEquals(bar, png.getRGB(160, 2) & 0xffffff);
        assertEquals(white, png.getRGB(53, 60) & 0xffffff);
        assertEquals(bar, png.getRGB(53, 150) & 0xffffff);
        assertEquals(0x282828, png.getRGB(5, 159) & 0xffffff, "the axis");
        McpSdkClientTest.awaitCount(progress, 3);
        assertEquals(List.of(1.0, 2.0, 3.0), progress.stream().map(McpSchema.ProgressNotification::progress)
                .sorted(Comparator.naturalOrder()).toList());
    }

    @Test
    void asksBeforeDrawingAChartLargerThanAScreen() throws Exception {
        McpSchema.CallToolResult result = McpSdk.execute(client, "chart-values",
                Map.of("values", List.of(5, 4), "width", 2400, "height", 1200));
        assertEquals(1, asked.size());
        assertTrue(asked.get(0).message().startsWith("Draw a 2400×1200 chart?"), asked.get(0).message());
        BufferedImage png = image(result);
        assertEquals(320, png.getWidth(), "the user chose the small size");
    }
}
