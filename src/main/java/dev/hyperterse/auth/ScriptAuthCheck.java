package dev.hyperterse.auth;

import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.script.ScriptFailure;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs an auth script per call. The script's export gets {@code { headers, tool }} (header names
 * lower-case) and decides:
 * <ul>
 *   <li>it throws (or rejects): denied, with its message;</li>
 *   <li>it returns {@code false}: denied;</li>
 *   <li>it returns nothing, {@code null} or {@code true}: allowed, with no identity;</li>
 *   <li>it returns {@code { subject?, claims? }}: allowed as that caller, whose claims fill
 *       {@code {{ auth.claims.x }}} placeholders and reach the tool's scripts.</li>
 * </ul>
 * Like every script it runs on a script worker with the tool-call time limit, sandboxed, seeing
 * only the environment variables its policy lists.
 */
public final class ScriptAuthCheck implements AuthCheck {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptAuthCheck.class);

    /** Runs an auth script: the server's script runtime, bound before the server serves. */
    @FunctionalInterface
    public interface Runner {
        Future<Object> call(String useKey, ScriptRef script, JsonObject payload, Duration timeout);
    }

    private final ScriptRef script;
    /** How the script runtime tells this block's contexts apart from the same file used elsewhere. */
    private final String useKey;
    private volatile Runner runner;
    private volatile Duration timeout = Duration.ofSeconds(5);

    ScriptAuthCheck(ScriptRef script, String useKey) {
        this.script = script;
        this.useKey = useKey;
    }

    /** Connects the check to the runtime that loaded its script; calls before this are denied. */
    public void bind(Runner runner, Duration timeout) {
        this.timeout = timeout;
        this.runner = runner;
    }

    @Override
    public boolean perTool() {
        return true;
    }

    @Override
    public Future<Caller> authenticate(RequestHeaders headers) {
        return authenticate("", headers);
    }

    @Override
    public Future<Caller> authenticate(String tool, RequestHeaders headers) {
        Runner bound = runner;
        if (bound == null) {
            return Future.failedFuture(new AuthDeniedException("the auth script is not running"));
        }
        JsonObject payload = new JsonObject()
                .put("headers", new JsonObject(new LinkedHashMap<>(headers.all())))
                .put("tool", tool);
        return bound.call(useKey, script, payload, timeout).transform(ar -> {
            if (ar.failed()) {
                return Future.failedFuture(denied(ar.cause()));
            }
            return decision(ar.result());
        });
    }

    private Future<Caller> decision(Object result) {
        if (result == null || Boolean.TRUE.equals(result)) {
            return Future.succeededFuture(Caller.ANONYMOUS);
        }
        if (Boolean.FALSE.equals(result)) {
            return Future.failedFuture(new AuthDeniedException("denied by the auth script"));
        }
        if (result instanceof JsonObject) {
            JsonObject identity = (JsonObject) result;
            for (String key : identity.fieldNames()) {
                if (!key.equals("subject") && !key.equals("claims")) {
                    // {allowed: false} must not read as "allowed": only the documented shape allows
                    return misbehaved("it returned an object with '" + key + "' (only 'subject' and 'claims' are known)");
                }
            }
            Object claims = identity.getValue("claims");
            Object subject = identity.getValue("subject");
            if ((claims != null && !(claims instanceof JsonObject)) || (subject != null && !(subject instanceof String))) {
                return misbehaved("'subject' must be a string and 'claims' an object");
            }
            Map<String, Object> claimMap = claims == null ? Map.of() : Caller.presentClaims((JsonObject) claims);
            String sub = subject != null ? (String) subject
                    : claimMap.get("sub") instanceof String ? (String) claimMap.get("sub") : null;
            return Future.succeededFuture(new Caller(sub, claimMap));
        }
        return misbehaved("it returned " + (result instanceof String ? "a string" : result instanceof Number
                ? "a number" : result instanceof Boolean ? "a boolean" : "an array"));
    }

    private Future<Caller> misbehaved(String why) {
        LOG.warn("auth script {} must return nothing, true, false or {{ subject, claims }}: {}",
                script.file().getFileName(), why);
        return Future.failedFuture(new AuthDeniedException("the auth script returned an unusable answer"));
    }

    /**
     * The script's own reason, without the "Error: " every thrown Error starts with. Anything that
     * is not the script's failure (the runtime shutting down, a bug) is logged, not shown.
     */
    private AuthDeniedException denied(Throwable e) {
        if (!(e instanceof ScriptFailure)) {
            LOG.warn("auth script {} could not run: {}", script.file().getFileName(), e.toString());
            return new AuthDeniedException("the auth script failed (see the server log)");
        }
        if (((ScriptFailure) e).timedOut()) {
            return new AuthDeniedException("the auth script " + e.getMessage());
        }
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("Error: ")) {
            message = message.substring("Error: ".length());
        }
        return new AuthDeniedException(message);
    }
}
