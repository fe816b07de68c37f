package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A tool's lead (name, title, first sentence) and its share of the {@code static} ranking's tool vector. */
class ToolLeadTest {

    @Test
    void theLeadIsTheNameTitleAndFirstSentence() {
        ToolDef titled = handler("list_open_issues",
                "Lists a repository's open issues, newest first. Closed ones are left out! Ask for them?")
                .toBuilder().title("Open issues").build();
        assertEquals("list open issues. Open issues. Lists a repository's open issues, newest first",
                SemanticRanking.lead(titled));
        assertEquals("get sum. Adds two numbers", SemanticRanking.lead(handler("get-sum", "Adds two numbers! Or more")));
        // a full stop not followed by white space ends no sentence; one at a line's end does
        assertEquals("get version. Reports version 1.2.3 of the server",
                SemanticRanking.lead(handler("get_version", "Reports version 1.2.3 of the server.\nCached.")));
        // a sentence may run over a line break
        assertEquals("run query. Runs a read-only query\nagainst the replica",
                SemanticRanking.lead(handler("run_query", "Runs a read-only query\nagainst the replica. Slow.")));
        // no sentence end: the first line, or the whole description
        assertEquals("search pages. Notion | Search by title",
                SemanticRanking.lead(handler("search_pages", "Notion | Search by title\nError Responses:\n400: Bad request")));
        assertEquals("run query. Runs a read-only query against the replica.",
                SemanticRanking.lead(handler("run_query", "Runs a read-only query against the replica.")));
        assertEquals("run query. ", SemanticRanking.lead(handler("run_query", "")));
    }

    private static final List<ToolDef> TOOLS = List.of(
            handler("report_render", "Turns a report into a PDF document. Fonts, margins, page size, headers,"
                    + " footers, watermarks and chart colours can be set; very long tables wrap across pages."),
            handler("report_share", "Sends colleagues a link to a report by email. Links expire after a week;"
                    + " to export the report as a PDF, use the renderer."),
            handler("report_schedule", "Runs a report every day, week or month at a set time."),
            handler("report_delete", "Deletes a report and its history."),
            handler("dashboard_list", "Lists the dashboards you can open."));

    private static String first(StaticPooling pooling, String query) {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically(ActionWeights.DEFAULT, pooling);
        return index.search(query).get(0).name();
    }

    @Test
    void aToolWhoseFirstSentenceNamesTheGoalOutranksOneThatMentionsItInACaveat() {
        StaticPooling d = StaticPooling.DEFAULT;
        StaticPooling wholeTextOnly = new StaticPooling(d.toolIdf(), d.queryIdf(), d.idfConstant(), d.unseenAtMean(),
                d.queryPrior(), d.maxShare(), d.minScore());
        assertEquals(0.4, d.leadShare());
        String query = "make a pdf of this report";
        assertEquals("report_render", first(d, query));
        // the whole text alone: the caveat's words ("report", "PDF") outweigh what the tool is for
        assertEquals("report_share", first(wholeTextOnly, query));
    }
}
