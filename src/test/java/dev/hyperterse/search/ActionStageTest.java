package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActionStageTest {

    private static final VerbLexicon LEXICON = VerbLexicon.bundled();
    private static final StaticEmbedder TABLE = StaticEmbedder.bundled();
    private static final ToolDef[] NOTES = {
            handler("create_note", "Create a new note in a notebook"),
            handler("delete_note", "Delete a note from a notebook"),
            handler("get_note", "The text of one note"),
            handler("create_notebook_export", "Create an export of a notebook as a zip file"),
            handler("notebook_stats", "Statistics of notes per notebook"),
            handler("list_reminders", "List the reminders"),
    };

    private static ActionStage stage(ActionWeights weights) {
        return new ActionStage(NOTES, LEXICON, TABLE, weights);
    }

    @Test
    void wordFormsAndIrregularFormsLeadToTheVerb() {
        assertEquals("remove", LEXICON.lemma("removes"));
        assertEquals("create", LEXICON.lemma("created"));
        assertEquals("make", LEXICON.lemma("made"));
        assertEquals("copy", LEXICON.lemma("copies"));
        assertNull(LEXICON.lemma("notebookish"));
    }

    @Test
    void anImperativeNamesItsVerbAQuestionAsksToRead() {
        ActionStage stage = stage(new ActionWeights(0.1, 0.1, 0, 0, 10, 1, true));
        assertEquals("make", stage.queryVerb("make a new note for the meeting"));
        assertEquals("open", stage.queryVerb("please open a note"));
        assertEquals("write_up", stage.queryVerb("I want to write up the notes from today"));
        assertEquals("get_rid_of", stage.queryVerb("get rid of that note"));
        assertNull(stage.queryVerb("notes about the budget"));
        assertNull(stage.read("notes about the budget"));
        assertNull(stage.read(""));
        ActionStage.Query question = stage.read("which notes mention the budget");
        assertEquals(1, question.mood());
        assertNull(question.verb());
        assertEquals(1, stage.read("did the export finish?").mood());
        // verbs of changing and of reading, placed by the table's vectors against SQL's and HTTP's
        assertTrue(stage.read("remove the old note").mood() < 0);
        assertTrue(stage.read("add a note about lunch").mood() < 0);
        assertTrue(stage.read("fetch the note called groceries").mood() > 0);
        assertNotNull(stage.read("make a new note").verb());
    }

    @Test
    void aToolReadsOrWritesByItsHintsElseItsVerb() {
        ActionStage stage = stage(new ActionWeights(0.1, 0.1, 0, 0, 10, 1, true));
        assertTrue(stage.toolMood(0) < 0); // create_note
        assertTrue(stage.toolMood(1) < 0); // delete_note
        assertTrue(stage.toolMood(2) > 0); // get_note
        assertEquals(0, stage.toolMood(4)); // notebook_stats: no verb to read
        ToolDef[] hinted = {
                handler("notebook_stats", "Statistics of notes per notebook").toBuilder()
                        .annotations(new ToolAnnotations(true, false, null, null)).build(),
                handler("create_note", "Create a note").toBuilder()
                        .annotations(new ToolAnnotations(null, true, null, null)).build(),
                inferred(db("note_count", "How many notes there are", "SELECT count(*) FROM notes")),
                inferred(db("purge_notes", "Notes older than a year", "DELETE FROM notes WHERE age > 365")),
        };
        ActionStage withHints = new ActionStage(hinted, LEXICON, TABLE, new ActionWeights(0.1, 0, 0, 0, 10, 1, true));
        assertEquals(1, withHints.toolMood(0));
        assertEquals(-1, withHints.toolMood(1));
        assertEquals(1, withHints.toolMood(2)); // read-only, inferred from its SELECT
        assertEquals(-1, withHints.toolMood(3)); // destructive, inferred from its DELETE
    }

    @Test
    void onlyTheFirstHitsSiblingsWithinTheMarginMove() {
        ActionStage stage = stage(new ActionWeights(0.1, 0.1, 0, 0, 10, 0.1, true));
        assertTrue(stage.siblings(0, 1)); // create_note, delete_note
        assertTrue(!stage.siblings(0, 5)); // create_note, list_reminders
        // "make a new note": delete_note first, an unrelated create, then create_note a little below
        int[] top = {1, 3, 0, 5};
        double[] score = {0.60, 0.59, 0.58, 0.40};
        stage.reorder(stage.read("make a new note"), top, score, 4);
        // create_note takes its sibling's place; create_notebook_export shares the verb, not the
        // first hit's object, and keeps its own; every place keeps its score
        assertArrayEquals(new int[] {0, 3, 1, 5}, top);
        assertArrayEquals(new double[] {0.60, 0.59, 0.58, 0.40}, score, 1e-9);
        // below the first few nothing moves: create_note at the third place stays there
        ActionStage firstTwo = stage(new ActionWeights(0.1, 0.4, 0, 0, 2, 1, false));
        int[] beyond = {1, 5, 0};
        double[] beyondScore = {0.60, 0.59, 0.58};
        firstTwo.reorder(firstTwo.read("make a new note"), beyond, beyondScore, 3);
        assertEquals(0, beyond[2]);
        // beyond the margin nothing moves
        int[] far = {1, 0, 5};
        double[] farScore = {0.60, 0.40, 0.30};
        stage.reorder(stage.read("make a new note"), far, farScore, 3);
        assertArrayEquals(new int[] {1, 0, 5}, far);
    }

    @Test
    void theNumberTheQueryNamesTheObjectInMatchesTheNames() {
        ToolDef[] issues = {
                handler("get_issue", "Details of an issue"),
                handler("list_issues", "Issues of a repository"),
                handler("create_issue", "Open an issue"),
        };
        ActionStage stage = new ActionStage(issues, LEXICON, TABLE, new ActionWeights(0, 0, 0.1, 0, 10, 1, true));
        String[] plural = {"which", "issues", "are", "still", "open"};
        assertEquals(-1, stage.number(plural, 0));
        assertEquals(1, stage.number(plural, 1));
        assertEquals(1, stage.number(new String[] {"what", "does", "issue", "123", "say"}, 0));
        assertEquals(0, stage.number(new String[] {"what", "is", "open"}, 0));
        int[] top = {0, 1, 2};
        double[] score = {0.55, 0.50, 0.45};
        stage.reorder(stage.read("which issues are still open"), top, score, 3);
        assertArrayEquals(new int[] {1, 0, 2}, top);
    }

    @Test
    void theDefaultReadsTheNumberTheQueryNamesTheObjectIn() {
        ToolDef[] issues = {
                handler("get_issue", "Details of an issue"),
                handler("list_issues", "Issues of a repository"),
        };
        ActionStage stage = new ActionStage(issues, LEXICON, TABLE, ActionWeights.DEFAULT);
        // a question, no verb: both tools read, and the plural names the list
        int[] top = {0, 1};
        double[] score = {0.50, 0.49};
        stage.reorder(stage.read("which issues are still open"), top, score, 2);
        assertArrayEquals(new int[] {1, 0}, top);
        int[] one = {1, 0};
        double[] oneScore = {0.50, 0.49};
        stage.reorder(stage.read("what does issue 123 say"), one, oneScore, 2);
        assertArrayEquals(new int[] {0, 1}, one);
    }

    @Test
    void aMultiWordVerbIsReadByItsSynonyms() {
        // "get rid of": its words pooled are near "get"; WordNet's first sense says remove
        assertArrayEquals(new String[] {"remove"}, LEXICON.synonyms("get_rid_of"));
        assertArrayEquals(new String[] {"make"}, LEXICON.synonyms("create"));
        assertEquals(0, LEXICON.synonyms("notebookish").length);
        int[] top = {2, 1, 0}; // get_note, delete_note, create_note, as close by their words
        double[] score = {0.50, 0.50, 0.50};
        ActionStage stage = stage(ActionWeights.DEFAULT);
        stage.reorder(stage.read("get rid of that note"), top, score, 3);
        assertEquals(1, top[0]);
        int[] plain = {2, 1, 0};
        ActionStage ownWords = stage(new ActionWeights(0.1, 0.4, 0.05, 0, 10, 1, false, 0.2, 0));
        ownWords.reorder(ownWords.read("get rid of that note"), plain, score, 3);
        assertEquals(2, plain[0]);
    }

    @Test
    void aToolsVerbIsReadWithItsSynonyms() {
        ToolAnnotations reads = new ToolAnnotations(true, false, null, null);
        ToolDef[] notes = {
                handler("get_note", "The text of one note").toBuilder().annotations(reads).build(),
                handler("search_notes", "Notes whose text matches words").toBuilder().annotations(reads).build(),
        };
        // "seek" is nearer "get" than "search" in the table; "search" with its synonyms
        // (seek, look for) is nearer "seek"; both tools read
        ActionStage stage = new ActionStage(notes, LEXICON, TABLE, ActionWeights.DEFAULT);
        int[] top = {0, 1};
        double[] score = {0.50, 0.50};
        stage.reorder(stage.read("seek anything about the budget"), top, score, 2);
        assertArrayEquals(new int[] {1, 0}, top);
        ActionStage ownWords = new ActionStage(notes, LEXICON, TABLE,
                new ActionWeights(0.1, 0.4, 0.05, 0, 10, 1, false, 0, 0.8));
        int[] plain = {0, 1};
        ownWords.reorder(ownWords.read("seek anything about the budget"), plain, score, 2);
        assertArrayEquals(new int[] {0, 1}, plain);
    }

    @Test
    void synonymSharesAreInZeroToOne() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ActionWeights(0.1, 0.4, 0, 0, 10, 1, false, 1.5, 0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ActionWeights(0.1, 0.4, 0, 0, 10, 1, false, 0, -0.1));
    }

    @Test
    void theObjectTheQueryNamesLiftsTheToolActingOnIt() {
        ToolDef[] cluster = {
                handler("list_nodes", "List the nodes of the cluster and their status"),
                handler("list_pods", "List the pods of a namespace and their status"),
                handler("delete_secret", "Delete a secret"),
                handler("get_pod_logs", "The logs of a pod"),
        };
        ActionStage stage = new ActionStage(cluster, LEXICON, TABLE, new ActionWeights(0.1, 0.4, 0, 0.2, 10, 1, false));
        ActionStage.Query q = stage.read("which pods are running");
        assertTrue(stage.object(q, 1) > stage.object(q, 0), stage.object(q, 1) + " " + stage.object(q, 0));
        // a tool whose name carries more than the query names is less near
        assertTrue(stage.object(q, 1) > stage.object(q, 3), stage.object(q, 1) + " " + stage.object(q, 3));
        // the nodes' lister was first by a little: the pods' now is; the unrelated tool stays below
        int[] top = {0, 1, 2};
        double[] score = {0.52, 0.50, 0.40};
        stage.reorder(q, top, score, 3);
        assertArrayEquals(new int[] {1, 0, 2}, top);
        // without the object reading (nor the number's) the order stays
        ActionStage without = new ActionStage(cluster, LEXICON, TABLE, new ActionWeights(0.1, 0.4, 0, 0, 10, 1, false));
        int[] kept = {0, 1, 2};
        without.reorder(without.read("which pods are running"), kept, score, 3);
        assertArrayEquals(new int[] {0, 1, 2}, kept);
    }

    @Test
    void theObjectReadingDoesNotTellTwoReadsOfOneObjectByNumber() {
        ToolDef[] issues = {
                handler("get_issue", "Details of an issue"),
                handler("list_issues", "Issues of a repository"),
                handler("create_issue", "Open an issue"),
        };
        ActionStage stage = new ActionStage(issues, LEXICON, TABLE, new ActionWeights(0, 0, 0, 0.2, 10, 1, false));
        ActionStage.Query q = stage.read("which issues are still open");
        // a word and its plural are one: both read the issue (only the other words' cosines to
        // "issue" and "issues" differ, by little), and the ranking's order stands
        assertEquals(stage.object(q, 0), stage.object(q, 1), 0.01);
        int[] top = {0, 1, 2};
        stage.reorder(q, top, new double[] {0.55, 0.50, 0.45}, 3);
        assertArrayEquals(new int[] {0, 1, 2}, top);
    }

    @Test
    void aToolWhoseNameNamesNoObjectIsReadByItsDescription() {
        ToolDef[] tools = {
                handler("kubectl_get", "Get a resource from the cluster"),
                handler("kubectl_delete", "Delete a resource from the cluster"),
                handler("kubectl_logs", "Logs of a pod"),
                handler("kubectl_scale", "Scale a deployment"),
        };
        ActionStage stage = new ActionStage(tools, LEXICON, TABLE, new ActionWeights(0, 0, 0, 0.2, 10, 1, false));
        ActionStage.Query q = stage.read("show me the resource");
        // kubectl, in every name, says nothing; the description's first phrase does
        assertEquals(1, stage.object(q, 0), 1e-9);
        assertTrue(stage.object(q, 0) > stage.object(q, 2));
        // a query that names no object reads none
        assertEquals(0, stage.object(stage.read("show me"), 0));
    }

    @Test
    void theStageMovesHitsInTheServedRankingAndScoresStayInRange() {
        ToolDef[] namespaces = {
                handler("delete_namespace", "Delete a namespace and everything in it"),
                handler("create_namespace", "Create a namespace"),
                handler("get_namespace", "Details of a namespace: labels, status, quotas"),
                handler("create_secret", "Create a secret holding a password or key"),
        };
        List<ToolDef> tools = List.of(namespaces);
        SearchIndex with = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        with.embedToolsStatically(new ActionWeights(0.2, 0.2, 0, 0, 10, 1, true));
        SearchIndex without = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        without.embedToolsStatically(ActionWeights.OFF);
        assertEquals("create_namespace", with.search("make a new namespace").get(0).name());
        assertEquals("delete_namespace", with.search("remove the staging namespace").get(0).name());
        // a question asks to read: the read sibling first
        assertEquals("get_namespace", with.search("what labels does the staging namespace have").get(0).name());
        // an unrelated tool with the query's verb is not lifted over the namespace tools
        List<SearchHit> make = with.search("make a new namespace");
        List<SearchHit> makeOff = without.search("make a new namespace");
        int secret = indexOf(make, "create_secret");
        int secretOff = indexOf(makeOff, "create_secret");
        assertTrue(secret < 0 || secretOff >= 0 && secret >= secretOff, make.toString());
        for (String q : List.of("make a new namespace", "what labels does the staging namespace have")) {
            List<SearchHit> hits = with.search(q);
            for (int i = 0; i < hits.size(); i++) {
                assertTrue(hits.get(i).relevanceScore() >= 1 && hits.get(i).relevanceScore() <= 100, hits.toString());
                assertTrue(i == 0 || hits.get(i).rawScore() <= hits.get(i - 1).rawScore(), hits.toString());
            }
        }
    }

    @Test
    void theServedRankingsReadTheAction() {
        ToolDef[] namespaces = {
                handler("delete_namespace", "Delete a namespace and everything in it"),
                handler("create_namespace", "Create a namespace"),
                handler("get_namespace", "Details of a namespace: labels, status, quotas"),
        };
        SearchIndex served = new SearchIndex(List.of(namespaces), 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        served.embedToolsStatically();
        assertEquals("create_namespace", served.search("make a new namespace").get(0).name());
        assertEquals("delete_namespace", served.search("remove the staging namespace").get(0).name());
    }

    @Test
    void theStageReadsBeyondTheHitsAskedForAndTheHitsKeepTheRankingsScores() {
        List<ToolDef> tools = List.of(
                handler("delete_namespace", "Delete a namespace and everything in it"),
                handler("create_namespace", "Create a namespace"),
                handler("get_namespace", "Details of a namespace: labels, status, quotas"),
                handler("create_secret", "Create a secret holding a password or key"),
                handler("list_pods", "List the pods of a namespace"),
                handler("delete_pod", "Delete a pod"));
        SearchIndex reaching = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        reaching.embedToolsStatically(new ActionWeights(0.1, 0.4, 0.05, 0, 10, 1, false, 0.2, 0.8, 10));
        SearchIndex asked = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        asked.embedToolsStatically(new ActionWeights(0.1, 0.4, 0.05, 0, 10, 1, false, 0.2, 0.8, 0));
        // asked for one hit, the stage reading only it cannot move anything: the words' first,
        // create_namespace, stays; reading further, the tool that does what the query asks rises into it
        assertEquals("create_namespace", asked.search("drop the staging namespace", null, 1).get(0).name());
        assertEquals("delete_namespace", reaching.search("drop the staging namespace", null, 1).get(0).name());
        assertEquals("create_namespace", asked.search("show the staging namespace", null, 1).get(0).name());
        assertEquals("get_namespace", reaching.search("show the staging namespace", null, 1).get(0).name());
        // the shipped ranking reads further too
        SearchIndex served = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        served.embedToolsStatically();
        assertEquals("delete_namespace", served.search("drop the staging namespace", null, 1).get(0).name());
        // every place keeps the ranking's score, so the hits' scores, and how many there are, are
        // the same as when the stage reads the hits asked for alone
        for (String q : List.of("drop the staging namespace", "which pods run in staging", "make a new namespace",
                "what time is it in Tokyo")) {
            for (int n : new int[] {1, 2, 3, 10}) {
                List<Double> scores = reaching.search(q, null, n).stream().map(SearchHit::rawScore).toList();
                assertEquals(asked.search(q, null, n).stream().map(SearchHit::rawScore).toList(), scores, q);
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> new ActionWeights(0.1, 0.4, 0, 0, 10, 1, false, 0, 0, -1));
    }

    @Test
    void theFirstHitsAreTheSameHoweverManyAreAskedForAndHiddenToolsAreNeverLifted() {
        List<ToolDef> tools = new java.util.ArrayList<>(List.of(
                handler("delete_namespace", "Delete a namespace and everything in it"),
                handler("create_namespace", "Create a namespace"),
                handler("get_namespace", "Details of a namespace: labels, status, quotas"),
                handler("list_pods", "List the pods of a namespace"),
                handler("delete_pod", "Delete a pod"),
                handler("kubectl_get", "Run kubectl get on any kind of resource and print it"),
                handler("kubectl_apply", "Apply a manifest to the cluster")));
        for (int i = 0; i < 30; i++) {
            tools.add(handler("report_" + i, "Monthly invoice report number " + i + " for accounting"));
        }
        SearchIndex index = new SearchIndex(tools, 50, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically();
        for (String q : List.of("which deployments are running in the cluster", "drop the staging namespace",
                "show the staging namespace", "which pods run in staging", "make a new namespace")) {
            List<String> ten = index.search(q, null, 10).stream().map(SearchHit::name).toList();
            List<String> fifty = index.search(q, null, 50).stream().map(SearchHit::name).toList();
            assertEquals(ten, fifty.subList(0, Math.min(fifty.size(), ten.size())), q);
            // a tool the caller may not see is never lifted into its hits
            List<String> hidden = index.search(q, t -> !t.name().equals("kubectl_get"), 10).stream()
                    .map(SearchHit::name).toList();
            assertTrue(!hidden.contains("kubectl_get"), q);
        }
    }

    /** The tool with the hints the loader infers from its statement. */
    private static ToolDef inferred(ToolDef tool) {
        return tool.toBuilder().annotations(ToolAnnotations.inferred(tool.statement(), false)).build();
    }

    private static int indexOf(List<SearchHit> hits, String name) {
        for (int i = 0; i < hits.size(); i++) {
            if (hits.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
