package dev.hyperterse.server;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.testing.SqlDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** {@code tools-examples/postgres} served on a database of its own. */
class PostgresShopExampleTest extends ShopExampleContract {

    PostgresShopExampleTest() {
        super(SqlDatabase.POSTGRES, "postgres", "SHOP_POSTGRES_URL");
    }

    @Override
    protected void dropDatabase(Connector admin, String database) {
        run(admin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    @Override
    protected JsonObject expectedAda() {
        return new JsonObject("{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"country\":\"GB\","
                + "\"vip\":true,\"created_at\":\"2024-01-15T09:30:00Z\"}");
    }

    @Override
    protected String expectedOrderedAt() {
        return "2024-05-20T15:45:00Z";
    }

    @Override
    protected JsonObject expectedKeyboard() {
        return new JsonObject("{\"id\":1,\"sku\":\"7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01\",\"name\":\"Mechanical keyboard\","
                + "\"price\":129.00,\"tags\":[\"keyboard\",\"usb\"],\"attributes\":{\"layout\":\"ISO\",\"switches\":\"brown\"},"
                + "\"thumbnail\":\"iVBORw==\"}");
    }

    @Override
    protected JsonArray expectedPlacedOrder() {
        return new JsonArray("[{\"id\":11,\"customer_id\":2,\"product_id\":4,\"quantity\":2,\"status\":\"pending\","
                + "\"ship_by\":\"2024-07-01\"}]");
    }
}
