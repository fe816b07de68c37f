package dev.hyperterse.script;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * What a script call may do towards the MCP client whose request it serves: the handler's
 * {@code ctx}. Called on the script's worker thread; an implementation hands the work to the
 * request's own event loop. Futures may complete on any thread.
 */
public interface ClientReach {

    /** One of {@code ask}'s kinds: the project's own resource by URI, through the resource's auth. */
    String READ_RESOURCE = "readResource";
    /** One of {@code ask}'s kinds: {@code elicitation/create}, asking the user. */
    String ELICIT = "elicit";
    /** One of {@code ask}'s kinds: {@code sampling/createMessage}, asking the client's model. */
    String SAMPLE = "sample";

    /**
     * {@code notifications/message} to the client, when its log level lets {@code level} through.
     *
     * @param level a level of RFC 5424 as MCP names them ({@code debug} … {@code emergency}), checked by the sandbox
     * @param data  the JSON value the script passed (decoded), or null for none
     */
    void log(String level, String message, Object data);

    /** {@code notifications/progress}, when the caller sent a progress token; ignored otherwise. */
    void progress(double done, Double total, String message);

    /** What a question's {@code key} may be: it names the input request of a 2026-07-28 input round. */
    java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    /**
     * Asks something of the client or the server on the caller's behalf ({@link #READ_RESOURCE},
     * {@link #ELICIT}, {@link #SAMPLE}) and completes with the result, or fails with a message fit
     * for the script (why it cannot be asked, what the client answered).
     *
     * @param key the name the script gave the question ({@link #KEY}), or null: in a 2026-07-28 input
     *            round, the key of its input request
     */
    Future<JsonObject> ask(String kind, JsonObject params, String key);

    /** How metrics and spans count a call that ended by putting a question to its client in an input round. */
    String INPUT_REQUIRED = "input_required";

    /**
     * True once a question of the call is to be answered with the client's next request (a
     * 2026-07-28 input round): the call ends there, whatever its script did after, and is no failure.
     */
    default boolean answersLater() {
        return false;
    }

    /** Where no client is reachable (an auth script, a check at start): logs go nowhere, questions fail. */
    ClientReach NONE = new ClientReach() {
        @Override
        public void log(String level, String message, Object data) {
        }

        @Override
        public void progress(double done, Double total, String message) {
        }

        @Override
        public Future<JsonObject> ask(String kind, JsonObject params, String key) {
            return Future.failedFuture(new IllegalStateException("ctx." + kind
                    + " is only available to a tool's scripts while they serve a call"));
        }
    };
}
