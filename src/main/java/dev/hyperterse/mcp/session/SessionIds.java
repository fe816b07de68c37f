package dev.hyperterse.mcp.session;

import java.security.SecureRandom;
import java.util.Base64;

/** Session ids: 192 random bits from {@link SecureRandom}, URL-safe base64 (visible ASCII only). */
final class SessionIds {
    private final SecureRandom random = new SecureRandom();

    String next() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
