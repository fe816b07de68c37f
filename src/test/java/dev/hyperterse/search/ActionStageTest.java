package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActionStageTest {

    private static final VerbLexicon LEXICON = VerbLexicon.bundled();
    private static final ToolDef[] NOTES = {
            handler("create_note", "Create a new note in a notebook"),
            handler("delete_note", "Delete a note from a notebook"),
            handler("list_notes", "List the notes of a notebook"),
            handler("app_install_plugin", "Install a plugin"),
            handler("app_uninstall_plugin", "Uninstall a plugin"),
            handler("notebook_stats", "Statistics of notes per notebook"),
    };

    private static ActionStage stage() {
        return new ActionStage(NOTES, LEXICON, new ActionWeights(0.05, 0.02, 0.08, true));
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
    void synonymsAndHypernymsAreTheSameActionAntonymsOpposite() {
        assertEquals(VerbLexicon.Relation.SAME, VerbLexicon.relate(LEXICON.action("make"), LEXICON.action("create")));
        assertEquals(VerbLexicon.Relation.SAME, VerbLexicon.relate(LEXICON.action("erase"), LEXICON.action("delete")));
        assertEquals(VerbLexicon.Relation.OPPOSITE,
                VerbLexicon.relate(LEXICON.action("enable"), LEXICON.action("disable")));
        assertEquals(VerbLexicon.Relation.OPPOSITE, VerbLexicon.relate(LEXICON.action("open"), LEXICON.action("close")));
        // not in WordNet, derived: un- undoes the verb
        assertEquals("uninstall", LEXICON.lemma("uninstalls"));
        assertEquals(VerbLexicon.Relation.OPPOSITE,
                VerbLexicon.relate(LEXICON.action("install"), LEXICON.action("uninstall")));
        assertEquals(VerbLexicon.Relation.OTHER, VerbLexicon.relate(LEXICON.action("create"), LEXICON.action("delete")));
    }

    @Test
    void anImperativeNamesItsActionAQuestionNone() {
        ActionStage stage = stage();
        assertEquals("make", stage.queryAction("make a new note for the meeting").lemma());
        assertEquals("open", stage.queryAction("please open a note").lemma());
        assertEquals("write_up", stage.queryAction("I want to write up the notes from today").lemma());
        assertEquals("get_rid_of", stage.queryAction("get rid of that note").lemma());
        assertNull(stage.queryAction("which notes mention the budget"));
        assertNull(stage.queryAction("notes about the budget"));
        assertNull(stage.queryAction(""));
    }

    @Test
    void aToolsActionComesFromItsNameOrDescription() {
        ActionStage stage = stage();
        VerbLexicon.Action make = stage.queryAction("make a new note");
        assertEquals(0.05, stage.adjustment(make, 0), 1e-9); // create_note: make is create
        assertEquals(-0.02, stage.adjustment(make, 1), 1e-9); // delete_note: another action
        VerbLexicon.Action uninstall = stage.queryAction("uninstall the spell checker plugin");
        assertEquals(-0.08, stage.adjustment(uninstall, 3), 1e-9); // app_install_plugin: the opposite
        assertEquals(0.05, stage.adjustment(uninstall, 4), 1e-9);
        assertEquals(0, stage.adjustment(make, 5), 1e-9); // notebook_stats: no action to read
        assertEquals(0, stage.adjustment(null, 0), 1e-9);
    }

    @Test
    void aSiblingWithTheQuerysActionMovesUpBeforeOneWithAnother() {
        ActionStage stage = new ActionStage(NOTES, LEXICON, new ActionWeights(0, 0, 0, true));
        assertTrue(stage.siblings(0, 1)); // create_note, delete_note
        assertTrue(stage.siblings(3, 4)); // app_install_plugin, app_uninstall_plugin: "app" is every tool's
        assertTrue(!stage.siblings(0, 3));
        int[] top = {1, 2, 0, 5};
        double[] score = {0.6, 0.55, 0.5, 0.4};
        stage.reorder(stage.queryAction("make a new note"), top, score, 4);
        // create_note moves before delete_note (another action on notes) and takes its score
        assertArrayEquals(new int[] {0, 1, 2, 5}, top);
        assertArrayEquals(new double[] {0.6, 0.6, 0.55, 0.4}, score, 1e-9);
        int[] unmoved = {1, 2, 0, 5};
        stage.reorder(stage.queryAction("which notes mention lunch"), unmoved, score, 4);
        assertArrayEquals(new int[] {1, 2, 0, 5}, unmoved);
    }

    @Test
    void theStageMovesHitsInTheServedRankingAndScoresStayInRange() {
        List<ToolDef> tools = List.of(NOTES);
        SearchIndex with = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        with.embedToolsStatically(new ActionWeights(0.3, 0.3, 0.3, true));
        SearchIndex without = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        without.embedToolsStatically(ActionWeights.OFF);
        // a query equally near both plugin tools: its action decides
        List<SearchHit> after = with.search("uninstall the plugin");
        assertEquals("app_uninstall_plugin", after.get(0).name());
        List<SearchHit> afterInstall = with.search("install the plugin");
        assertEquals("app_install_plugin", afterInstall.get(0).name());
        assertTrue(after.get(0).rawScore() > without.search("uninstall the plugin").get(0).rawScore());
        for (SearchHit hit : after) {
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
        }
    }
}
