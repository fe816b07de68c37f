package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactionTest {

    @Test
    void secretsLeaveNoPasswordTokenOrKey() {
        assertEquals("postgres://app:***@db:5432/shop", Redaction.secrets("postgres://app:s3cret@db:5432/shop"));
        assertEquals("host=db password=*** user=app", Redaction.secrets("host=db password=s3cret user=app"));
        assertEquals("http://h/mcp?access_token=***&page=2", Redaction.secrets("http://h/mcp?access_token=abc123&page=2"));
        assertEquals("{\"apiKey\":\"***\",\"n\":1}", Redaction.secrets("{\"apiKey\":\"k-123\",\"n\":1}"));
        assertEquals("WHERE password='***'", Redaction.secrets("WHERE password='hunter2'"));
        assertEquals("client_secret: ***", Redaction.secrets("client_secret: abc"));
        assertEquals("Authorization: Bearer ***", Redaction.secrets("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"));
    }

    @Test
    void ordinaryMessagesAreUntouched() {
        for (String text : new String[] {
                "input validation failed: validation error for field 'customer_id': expected int, got \"x\"",
                "auth failed: the caller's token has no 'sub' claim",
                "root auth: policy 'secret' must be at least 32 characters",
                "execution failed: no such column: nme",
                "tools/a/config.terse:2: unknown key 'statment' (did you mean 'statement'?)"}) {
            assertEquals(text, Redaction.secrets(text));
        }
        assertEquals(null, Redaction.secrets(null));
    }

    @Test
    void namesThatHoldSecrets() {
        for (String name : new String[] {"password", "db_password", "apiKey", "api_key", "X-API-Key", "token",
                "refresh_token", "client_secret", "authorization", "Cookie", "private_key", "key", "license_key",
                "sshKey", "KEY", "key-id", "signing.key"}) {
            assertTrue(Redaction.sensitiveName(name), name);
        }
        for (String name : new String[] {"customer_id", "email", "status", "query", "text", "monkey", "keyword",
                "turkey_count", "keys_pressed"}) {
            assertFalse(Redaction.sensitiveName(name), name);
        }
    }
}
