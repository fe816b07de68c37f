package dev.hyperterse.pipeline;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.Caller;
import dev.hyperterse.auth.RequestHeaders;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A request asks each auth check once (per tool for checks that decide per tool), however many stages ask. */
class AuthDecidedOnceTest {
    private static final class Counting implements AuthCheck {
        final List<String> asked = new ArrayList<>();
        final boolean perTool;

        Counting(boolean perTool) {
            this.perTool = perTool;
        }

        @Override
        public Future<Caller> authenticate(RequestHeaders headers) {
            asked.add("*");
            return Future.succeededFuture(Caller.ANONYMOUS);
        }

        @Override
        public Future<Caller> authenticate(String tool, RequestHeaders headers) {
            asked.add(tool);
            return Future.succeededFuture(Caller.ANONYMOUS);
        }

        @Override
        public boolean perTool() {
            return perTool;
        }
    }

    @Test
    void aCheckThatAnswersAlikeForEveryToolRunsOncePerRequest() {
        Counting check = new Counting(false);
        CallContext request = new CallContext(Map.of(), null, null);
        Future<Caller> first = request.decidedBy(check, "a");
        assertSame(first, request.decidedBy(check, "b"));
        assertSame(first, request.decidedBy(check, null));
        assertEquals(List.of("a"), check.asked);
        // another request decides afresh
        new CallContext(Map.of(), null, null).decidedBy(check, "a");
        assertEquals(2, check.asked.size());
    }

    @Test
    void aCheckThatDecidesPerToolRunsOncePerTool() {
        Counting script = new Counting(true);
        Counting other = new Counting(true);
        CallContext request = new CallContext(Map.of(), null, null);
        request.decidedBy(script, "a");
        request.decidedBy(script, "a");
        request.decidedBy(script, "b");
        request.decidedBy(other, "a");
        assertEquals(List.of("a", "b"), script.asked);
        assertEquals(List.of("a"), other.asked);
    }
}
