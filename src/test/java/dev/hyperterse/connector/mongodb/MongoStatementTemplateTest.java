package dev.hyperterse.connector.mongodb;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.StatementException;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MongoStatementTemplateTest {

    private static CompiledStatement compile(String template) throws StatementException {
        return MongoStatementTemplate.compile(template, Map.of("SHOP_DB", "shop", "COLL", "orders"));
    }

    private static BsonDocument bind(String template, Object... values) throws StatementException {
        CompiledStatement c = compile(template);
        return MongoStatementTemplate.parse(c).bind(c.parameters(), new ArrayList<>(Arrays.asList(values)));
    }

    private static StatementException error(String template) {
        return assertThrows(StatementException.class, () -> compile(template));
    }

    @Test
    void placeholdersAreTypedHolesBareOrQuoted() throws Exception {
        String template = "{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\":"
                + " {\"name\": \"{{ inputs.name }}\", \"age\": {{ inputs.age }}, \"vip\": \"{{inputs.vip}}\"},"
                + " \"limit\": {{ inputs.n }}}}";
        CompiledStatement c = compile(template);
        assertEquals(List.of(new Parameter(Source.INPUT, "name"), new Parameter(Source.INPUT, "age"),
                new Parameter(Source.INPUT, "vip"), new Parameter(Source.INPUT, "n")), c.parameters());
        BsonDocument cmd = bind(template, "a\"b", 42L, true, 5L);
        assertEquals(BsonDocument.parse("{\"find\": \"users\", \"filter\": {\"name\": \"a\\\"b\", \"age\": 42,"
                + " \"vip\": true}, \"limit\": 5}"), cmd);
        assertEquals("find", cmd.getFirstKey(), "the command name stays first");
    }

    @Test
    void aStringThatLooksLikeJsonOrAnOperatorStaysAString() throws Exception {
        String template = "{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\": {\"name\": {{ inputs.name }}}}}";
        for (String payload : List.of("{\"$gt\": \"\"}", "\", \"$where\": \"1\"", "$where", "{\"$ne\": null}")) {
            BsonDocument cmd = bind(template, payload);
            assertEquals(payload, cmd.getDocument("filter").getString("name").getValue());
            assertEquals(1, cmd.getDocument("filter").size());
        }
    }

    @Test
    void aPlaceholderInsideAStringPastesTextIntoThatString() throws Exception {
        BsonDocument cmd = bind("{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\":"
                + " {\"email\": {\"$regex\": \"^{{ inputs.prefix }}\\\\.x\"}}}}", "a\"}, {\"$where\": 1");
        assertEquals("^a\"}, {\"$where\": 1\\.x",
                cmd.getDocument("filter").getDocument("email").getString("$regex").getValue());
    }

    @Test
    void objectIdsAndDates() throws Exception {
        BsonDocument cmd = bind("{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\":"
                + " {\"_id\": {\"$oid\": \"{{ inputs.id }}\"}, \"owner\": {\"$oid\": \"65f0a1b2c3d4e5f601234567\"},"
                + " \"at\": {\"$gte\": {\"$date\": \"{{ inputs.since }}\"}, \"$lt\": {\"$date\": \"2024-06-01T00:00:00Z\"}}}}}",
                "65f0a1b2c3d4e5f601234568", "2024-05-01T00:00:00Z");
        BsonDocument filter = cmd.getDocument("filter");
        assertEquals("65f0a1b2c3d4e5f601234568", filter.getObjectId("_id").getValue().toHexString());
        assertEquals("65f0a1b2c3d4e5f601234567", filter.getObjectId("owner").getValue().toHexString());
        assertEquals(1714521600000L, filter.getDocument("at").getDateTime("$gte").getValue());
        assertEquals(1717200000000L, filter.getDocument("at").getDateTime("$lt").getValue());
        ConnectorException bad = assertThrows(ConnectorException.class, () -> bind("{\"database\": \"shop\","
                + " \"command\": {\"find\": \"users\", \"filter\": {\"_id\": {\"$oid\": \"{{ inputs.id }}\"}}}}",
                "{\"$gt\": \"\"}"));
        assertEquals("input 'id' must be an ObjectId (24 hex digits) to stand in {\"$oid\": …}", bad.getMessage());
    }

    /**
     * A find's projection, findAndModify's fields and a command's let are aggregation expressions
     * too: "$secret" there would be another field's value, so a bound one is a literal.
     */
    @Test
    void projectionsAndLetAreExpressions() throws Exception {
        BsonDocument find = bind("{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\": {},"
                + " \"projection\": {\"label\": \"{{ inputs.a }}\"}, \"let\": {\"v\": \"{{ inputs.b }}\"}}}",
                "$secret", "$secret");
        assertEquals(BsonDocument.parse("{\"$literal\": \"$secret\"}"), find.getDocument("projection").get("label"));
        assertEquals(BsonDocument.parse("{\"$literal\": \"$secret\"}"), find.getDocument("let").get("v"));
        BsonDocument modify = bind("{\"database\": \"shop\", \"command\": {\"findAndModify\": \"users\","
                + " \"query\": {\"name\": \"{{ inputs.a }}\"}, \"fields\": {\"label\": \"{{ inputs.b }}\"},"
                + " \"update\": {\"$set\": {\"seen\": true}}}}", "$secret", "$secret");
        assertEquals("$secret", modify.getDocument("query").getString("name").getValue(), "a query value is as it is");
        assertEquals(BsonDocument.parse("{\"$literal\": \"$secret\"}"), modify.getDocument("fields").get("label"));
    }

    @Test
    void inAggregationExpressionsADollarStringIsALiteralNotAFieldPath() throws Exception {
        BsonDocument cmd = bind("{\"database\": \"shop\", \"command\": {\"aggregate\": \"users\", \"pipeline\": ["
                + "{\"$match\": {\"name\": \"{{ inputs.a }}\", \"$expr\": {\"$eq\": [\"$name\", \"{{ inputs.b }}\"]}}},"
                + "{\"$limit\": {{ inputs.n }}}], \"cursor\": {}}}", "$secret", "$secret", 3L);
        BsonDocument match = cmd.getArray("pipeline").get(0).asDocument().getDocument("$match");
        assertEquals("$secret", match.getString("name").getValue(), "a query value is compared as it is");
        assertEquals(BsonDocument.parse("{\"$literal\": \"$secret\"}"),
                match.getDocument("$expr").getArray("$eq").get(1), "an expression value is a literal");
        assertEquals(3, cmd.getArray("pipeline").get(1).asDocument().getInt32("$limit").getValue());
    }

    @Test
    void objectValuesCannotCarryOperators() throws Exception {
        String template = "{\"database\": \"shop\", \"command\": {\"find\": \"users\", \"filter\": {\"name\": {{ inputs.v }}}}}";
        ConnectorException e = assertThrows(ConnectorException.class, () -> bind(template, Map.of("$gt", "")));
        assertTrue(e.getMessage().startsWith("input 'v' has the key '$gt'"), e.getMessage());
        assertEquals(BsonDocument.parse("{\"first\": \"a\"}"),
                bind(template, Map.of("first", "a")).getDocument("filter").getDocument("name"));
    }

    /**
     * A number inside an object or array input that no BSON number holds exactly (more than 34
     * significant digits, or an exponent past Decimal128's) is the caller's mistake, named as such;
     * one that fits keeps every digit.
     */
    @Test
    void aNumberNoBsonTypeHoldsIsRefusedByName() throws Exception {
        String template = "{\"database\": \"shop\", \"command\": {\"insert\": \"t\", \"documents\": [{{ inputs.doc }}]}}";
        java.math.BigInteger huge = new java.math.BigInteger("1234567890123456789012345678901234567890");
        ConnectorException e = assertThrows(ConnectorException.class, () -> bind(template, Map.of("n", huge)));
        assertEquals("input 'doc' holds the number 1234567890123456789012345678901234567890, which MongoDB cannot store"
                + " exactly (at most 34 significant digits)", e.getMessage());
        ConnectorException listed = assertThrows(ConnectorException.class, () -> bind(template,
                Map.of("xs", List.of(1, new java.math.BigDecimal("1e7000")))));
        assertTrue(listed.getMessage().startsWith("input 'doc' holds the number 1E+7000,"), listed.getMessage());
        // what the request's JSON reader makes of 1e400 inside an object: no BSON double holds it
        Object infinite = new io.vertx.core.json.JsonObject("{\"n\": 1e400}").getValue("n");
        ConnectorException past = assertThrows(ConnectorException.class, () -> bind(template, Map.of("n", infinite)));
        assertEquals("input 'doc' holds a number beyond the range of a double", past.getMessage());
        java.math.BigInteger wide = new java.math.BigInteger("123456789012345678901234567890");
        assertEquals(new org.bson.BsonDecimal128(new org.bson.types.Decimal128(new java.math.BigDecimal(wide))),
                bind(template, Map.of("n", wide)).getArray("documents").get(0).asDocument().get("n"));
    }

    @Test
    void envIsPastedBeforeParsing() throws Exception {
        CompiledStatement c = compile("{\"database\": \"{{ env.SHOP_DB }}\", \"command\": {\"find\": \"{{ env.COLL }}\"}}");
        MongoStatement s = MongoStatementTemplate.parse(c);
        assertEquals("shop", s.database());
        assertEquals("orders", s.bind(c.parameters(), List.of()).getString("find").getValue());
    }

    @Test
    void hyperterseErrorsAtTheirLine() {
        StatementException e = error("{\"database\": \"shop\",\n  \"command\": {\"find\": \"users\",\n \"filter\": {\"a\" 1}}}");
        assertTrue(e.getMessage().startsWith("statement must be valid JSON"), e.getMessage());
        assertEquals(3, e.line());
        assertTrue(error("{\"command\": {\"find\": \"x\"}}").getMessage().startsWith("statement must include database ("));
        assertTrue(error("{\"database\": \"shop\"}").getMessage().startsWith("statement must include command ("));
        assertTrue(error("find users").getMessage().startsWith("statement must be valid JSON"));
    }

    @Test
    void placesWhereNoValueMayStand() {
        String base = "{\"database\": \"shop\", \"command\": ";
        assertTrue(error(base + "{\"find\": \"users\", \"filter\": {\"{{ inputs.f }}\": 1}}}").getMessage()
                .startsWith("a placeholder cannot be a key"));
        assertTrue(error("{\"database\": \"{{ inputs.db }}\", \"command\": {\"find\": \"users\"}}").getMessage()
                .contains("cannot be the database"));
        assertTrue(error(base + "{\"find\": \"{{ inputs.c }}\"}}").getMessage().contains("cannot be the command's collection"));
        StatementException where = error(base + "{\"find\": \"users\", \"filter\":\n {\"$where\": \"this.a == '{{ inputs.a }}'\"}}}");
        assertTrue(where.getMessage().contains("inside JavaScript code ($where)"), where.getMessage());
        assertEquals(2, where.line());
        assertTrue(error(base + "{\"aggregate\": \"u\", \"pipeline\": [{\"$addFields\": {\"x\": {\"$function\": "
                + "{\"body\": \"function() { return '{{ inputs.a }}' }\", \"args\": [], \"lang\": \"js\"}}}}]}}")
                .getMessage().contains("$function's body"));
        assertTrue(error(base + "{\"find\": \"users\", \"filter\": {\"a\": {{ inputs.a }} }, \"filter\": {}}}")
                .getMessage().contains("appears twice"));
        assertTrue(error(base + "{\"find\": \"users\", \"filter\": {\"a\": {{ input.a }}}}}").getMessage()
                .startsWith("malformed placeholder"));
    }

    @Test
    void claimsAreHolesToo() throws Exception {
        CompiledStatement c = compile("{\"database\": \"shop\", \"command\": {\"find\": \"orders\", \"filter\":"
                + " {\"owner\": \"{{ auth.claims.sub }}\"}}}");
        assertEquals(List.of(new Parameter(Source.CLAIM, "sub")), c.parameters());
    }
}
