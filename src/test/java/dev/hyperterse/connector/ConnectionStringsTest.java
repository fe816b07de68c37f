package dev.hyperterse.connector;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionStringsTest {

    @Test
    void urlsWithTheCharactersRealPasswordsHold() {
        Endpoint e = ConnectionStrings.url("db", "postgres", "postgres://app:p@ss/w?rd#1@db.example.com:6543/shop?sslmode=require", 5432);
        assertEquals("app", e.user());
        assertEquals("p@ss/w?rd#1", e.password());
        assertEquals("db.example.com", e.host());
        assertEquals(6543, e.port());
        assertEquals("shop", e.database());
        assertEquals(Map.of("sslmode", "require"), e.parameters());
        assertFalse(e.toString().contains("p@ss"), e.toString());
        assertEquals("db.example.com:6543/shop", e.describe());
    }

    @Test
    void percentEncodingIPv6AndDefaults() {
        Endpoint e = ConnectionStrings.url("db", "mysql", "mysql://r%40ot:s%2Fecret@[::1]/my%20db", 3306);
        assertEquals("r@ot", e.user());
        assertEquals("s/ecret", e.password());
        assertEquals("::1", e.host());
        assertEquals(3306, e.port());
        assertEquals("my db", e.database());
        assertEquals("[::1]:3306/my db", e.describe());
        Endpoint bare = ConnectionStrings.url("db", "redis", "redis://", 6379);
        assertEquals("localhost", bare.host());
        assertNull(bare.user());
        assertNull(bare.database());
        assertTrue(ConnectionStrings.isUrl("POSTGRESQL://h/db", Set.of("postgres", "postgresql")));
        assertFalse(ConnectionStrings.isUrl("host=h", Set.of("postgres")));
    }

    @Test
    void badUrlsNeverRepeatTheString() {
        for (String bad : new String[] {"postgres://u:secret@h:99999/db", "postgres://u:secret%zz@h/db",
                "postgres://u:secret@h1,h2/db", "postgres://u:secret@[::1/db"}) {
            ConnectorException e = assertThrows(ConnectorException.class,
                    () -> ConnectionStrings.url("db", "postgres", bad, 5432));
            assertTrue(e.getMessage().startsWith("adapter 'db': connection_string is not a valid postgres connection"
                    + " string: "), e.getMessage());
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
        }
    }

    @Test
    void aPasswordWithoutTheAtThatEndsItIsNotRepeatedAsAPort() {
        // "user:password" with the "@host" left out reads as host "user" and port "password"
        for (String bad : new String[] {"postgres://admin:secret/db", "postgres://admin:secret", "redis://:secret",
                "mysql://root:24681357/shop"}) {
            ConnectorException e = assertThrows(ConnectorException.class,
                    () -> ConnectionStrings.url("db", "postgres", bad, 5432));
            assertEquals("adapter 'db': connection_string is not a valid postgres connection string: the text after"
                    + " the last ':' before the path is not a port from 1 to 65535 (user and password end with '@',"
                    + " as in postgres://user:password@host:port/database)", e.getMessage());
        }
        // after an '@' the port is the writer's, and is quoted
        assertTrue(assertThrows(ConnectorException.class,
                () -> ConnectionStrings.url("db", "postgres", "postgres://u:secret@h:54x32/db", 5432))
                .getMessage().endsWith("the port '54x32' is not a number from 1 to 65535"));
    }

    @Test
    void keyValuePairs() {
        assertEquals(Map.of("host", "db", "port", "5432", "dbname", "app", "password", "it's a secret", "user", "me"),
                ConnectionStrings.keyValues("db", "postgres",
                        "host=db port = 5432 dbname=app password='it\\'s a secret' user=me"));
        assertEquals(Map.of("server", "db", "user_id", "me", "pwd", "a;b"),
                ConnectionStrings.keyValues("db", "mysql", "Server=db; User Id=me;Pwd=\"a;b\";"));
        assertThrows(ConnectorException.class, () -> ConnectionStrings.keyValues("db", "postgres", "host=db nonsense"));
        assertThrows(ConnectorException.class, () -> ConnectionStrings.keyValues("db", "postgres", "password='open"));
    }
}
