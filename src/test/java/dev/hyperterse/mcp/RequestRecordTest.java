package dev.hyperterse.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRecordTest {

    private final List<String> counted = new ArrayList<>();
    private final Metrics metrics = new Metrics() {
        @Override
        public void request(String method, String status, long nanos) {
            counted.add(method + " " + status);
        }
    };

    private RequestRecord record(String method) {
        return RequestRecord.start(Tracing.OFF, metrics, method, "2026-07-28");
    }

    @Test
    void aResponseSaysItsStatus() {
        record("tools/call").finish(JsonRpc.result(1, new JsonObject().put("content", List.of())), false);
        record("tools/call").finish(JsonRpc.result(2, new JsonObject().put("isError", true)), false);
        record("tools/list").finish(JsonRpc.error(3, JsonRpc.INVALID_PARAMS, "Invalid params: cursor"), false);
        record("tools/call").finish(JsonRpc.result(4, new JsonObject()), true);
        assertEquals(List.of("tools/call ok", "tools/call tool_error", "tools/list -32602", "tools/call cancelled"),
                counted);
    }

    @Test
    void aRequestIsCountedOnce() {
        RequestRecord record = record("resources/read");
        record.ok();
        record.finish("-32603", "Internal error");
        record.finish(JsonRpc.error(5, JsonRpc.INTERNAL_ERROR, "Internal error"), false);
        assertEquals(List.of("resources/read ok"), counted);
    }
}
