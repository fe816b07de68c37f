package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.ConnectorException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How a mysql adapter's connection string is read, without a server. */
class MySqlSettingsTest {

    private static String refusal(String connectionString) {
        return assertThrows(ConnectorException.class,
                () -> MySqlSettings.parse("shop", connectionString, Map.of())).getMessage();
    }

    @Test
    void aMalformedGoDsnIsAConfigurationErrorThatNamesTheProblem() {
        // as the Go driver refuses them, but in words, and without repeating the value
        assertEquals("adapter 'shop': connection_string is not a valid mysql connection string: a '%' is not"
                + " followed by two hex digits (write %25 for a literal %)",
                refusal("root:secret@tcp(db:3306)/shop?collation=%zz"));
        assertEquals("adapter 'shop': connection_string is not a valid mysql connection string: an IPv6 host is"
                + " missing its ']'", refusal("root:secret@tcp([::1)/shop"));
        assertEquals("adapter 'shop': connection_string is not a valid mysql connection string: unexpected text"
                + " after the IPv6 host", refusal("root:secret@tcp([::1]x)/shop"));
    }

    @Test
    void aGoDsnReadsAsTheGoDriverReadsIt() {
        MySqlSettings s = MySqlSettings.parse("shop", "app:p@ss:w/rd@tcp([::1]:3307)/shop?collation=utf8mb4_bin&loc=Asia%2FTokyo",
                Map.of());
        assertEquals("[::1]:3307/shop", s.endpoint().describe());
        assertEquals("app", s.endpoint().user());
        assertEquals("p@ss:w/rd", s.endpoint().password());
        assertEquals("utf8mb4_bin", s.collation());
    }
}
