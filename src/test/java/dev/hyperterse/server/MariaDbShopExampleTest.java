package dev.hyperterse.server;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.testing.SqlDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** {@code tools-examples/mysql} served on a MariaDB database of its own. */
class MariaDbShopExampleTest extends ShopExampleContract {

    MariaDbShopExampleTest() {
        super(SqlDatabase.MARIADB, "mysql", "SHOP_MYSQL_URL");
    }

    @Override
    protected void dropDatabase(Connector admin, String database) {
        run(admin, "DROP DATABASE IF EXISTS " + database);
    }

    @Override
    protected JsonObject expectedAda() {
        // MySQL has no boolean (BOOLEAN is TINYINT(1)) and DATETIME has no zone
        return new JsonObject("{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"country\":\"GB\","
                + "\"vip\":1,\"created_at\":\"2024-01-15T09:30:00\"}");
    }

    @Override
    protected String expectedOrderedAt() {
        return "2024-05-20T15:45:00";
    }

    @Override
    protected JsonObject expectedKeyboard() {
        // MariaDB's JSON is LONGTEXT and its columns come back as text
        return new JsonObject("{\"id\":1,\"sku\":\"7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01\",\"name\":\"Mechanical keyboard\","
                + "\"price\":129.00,\"tags\":\"[\\\"keyboard\\\", \\\"usb\\\"]\","
                + "\"attributes\":\"{\\\"layout\\\": \\\"ISO\\\", \\\"switches\\\": \\\"brown\\\"}\",\"thumbnail\":\"iVBORw==\"}");
    }

    @Override
    protected JsonArray expectedPlacedOrder() {
        return new JsonArray("[{\"rows_affected\":1}]");
    }
}
