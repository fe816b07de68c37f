package dev.hyperterse.auth;

import java.util.List;

/**
 * OAuth protected-resource settings (RFC 9728) of a token-based check: what the server's
 * {@code /.well-known/oauth-protected-resource} document and its 401 challenges announce.
 *
 * @param resource             this server's resource identifier, or null to use the request's URL
 * @param authorizationServers issuers clients get tokens from (at least one)
 * @param scopes               scopes a token needs
 */
public record ProtectedResource(String resource, List<String> authorizationServers, List<String> scopes) {
    public ProtectedResource {
        authorizationServers = List.copyOf(authorizationServers);
        scopes = List.copyOf(scopes);
    }
}
