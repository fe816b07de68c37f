package dev.hyperterse.model;

/**
 * The {@code tools.search} block: how the {@code search} meta-tool finds tools and what its hits show.
 *
 * @param limit        hits returned ({@code tools.search.limit}, default 10)
 * @param ranking      how tools are ordered ({@code tools.search.ranking})
 * @param rankingWritten whether the project chose the ranking (false: the default, {@code semantic}
 *                     where the server has its add-on, else {@code static})
 * @param filterByAuth a caller is shown only the tools its credentials may execute
 *                     ({@code tools.search.filter_by_auth}, default true)
 * @param statements   a database tool's hit carries its statement ({@code tools.search.statements},
 *                     default true, as Hyperterse 2.0 to 2.1 showed it); false keeps the SQL from agents
 */
public record SearchSettings(int limit, SearchRanking ranking, boolean rankingWritten, boolean filterByAuth,
                             boolean statements) {
}
