package dev.hyperterse.connector.mongodb;

import dev.hyperterse.connector.CompiledStatement.Parameter;
import org.bson.BsonDocument;

import java.util.List;

/**
 * A parsed MongoDB statement: the database to run in and the command, whose first key names it.
 *
 * @param commandName the command's first key as written ({@code find}, {@code aggregate}, …)
 */
record MongoStatement(String database, String commandName, CommandNode.Document command) {

    /** The command with this call's values in its holes. */
    BsonDocument bind(List<Parameter> parameters, List<Object> values) {
        return command.bind(new BoundValues(parameters, values));
    }

    /** The command with stand-ins in its holes, for checking it against a server without values. */
    BsonDocument bindForCheck(List<Parameter> parameters) {
        return command.bind(BoundValues.forCheck(parameters));
    }
}
