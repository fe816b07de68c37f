package dev.hyperterse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.List;
import java.util.Map;

/**
 * Usage help whose text wraps at spaces only. Picocli wraps with the JDK's line break rules,
 * which also break after {@code :} and {@code .} inside a word, so {@code file:line} and
 * {@code server.port} were split across lines; here a line breaks at the last space that fits,
 * and only a single word longer than the whole column is cut.
 */
final class WordWrappedHelp extends Help {

    WordWrappedHelp(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    /** Installs this help on {@code cli} and every subcommand it has now. */
    static CommandLine install(CommandLine cli) {
        return cli.setHelpFactory(WordWrappedHelp::new);
    }

    @Override
    public Layout createDefaultLayout(List<OptionSpec> options, List<PositionalParamSpec> positionals,
                                      ColorScheme scheme) {
        Layout layout = super.createDefaultLayout(options, positionals, scheme);
        return new Layout(scheme, SpaceWrappedTable.like(scheme, layout.textTable()));
    }

    @Override
    public TextTable createTextTable(Map<?, ?> map) {
        return SpaceWrappedTable.like(colorScheme(), super.createTextTable(map));
    }

    /** The subcommands, each with the first line of its header or description, as picocli lists them. */
    @Override
    public String commandList(Map<String, Help> subcommands) {
        if (subcommands.isEmpty()) {
            return "";
        }
        int width = commandSpec().usageMessage().width();
        int nameWidth = Math.min(subcommands.keySet().stream().mapToInt(String::length).max().orElse(0), width / 2);
        SpaceWrappedTable table = new SpaceWrappedTable(colorScheme(),
                new Column(nameWidth + 2, 2, Column.Overflow.SPAN),
                new Column(width - (nameWidth + 2), 2, Column.Overflow.WRAP));
        table.setAdjustLineBreaksForWideCJKCharacters(commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters());
        for (Help help : subcommands.values()) {
            CommandLine.Model.UsageMessageSpec usage = help.commandSpec().usageMessage();
            String summary = usage.header().length > 0 ? usage.header()[0]
                    : usage.description().length > 0 ? usage.description()[0] : "";
            Ansi.Text[] lines = colorScheme().text(String.format(summary)).splitLines();
            for (int i = 0; i < lines.length; i++) {
                table.addRowValues(i == 0 ? help.commandNamesText(", ") : colorScheme().text(""), lines[i]);
            }
        }
        return table.toString();
    }

    /** Each element of the description is a paragraph, wrapped to the usage width. */
    @Override
    public String description(Object... params) {
        String[] paragraphs = commandSpec().usageMessage().description();
        if (paragraphs.length == 0) {
            return "";
        }
        SpaceWrappedTable table = new SpaceWrappedTable(colorScheme(),
                new Column(commandSpec().usageMessage().width(), 0, Column.Overflow.WRAP));
        table.indentWrappedLines = 0;
        for (String paragraph : paragraphs) {
            for (Ansi.Text line : colorScheme().text(String.format(paragraph, params)).splitLines()) {
                table.addRowValues(line);
            }
        }
        return table.toString();
    }

    /** A table whose wrapping columns break lines at spaces. */
    static final class SpaceWrappedTable extends TextTable {

        SpaceWrappedTable(ColorScheme scheme, Column... columns) {
            super(scheme, columns);
        }

        static SpaceWrappedTable like(ColorScheme scheme, TextTable model) {
            SpaceWrappedTable table = new SpaceWrappedTable(scheme, model.columns());
            table.indentWrappedLines = model.indentWrappedLines;
            table.setAdjustLineBreaksForWideCJKCharacters(model.isAdjustLineBreaksForWideCJKCharacters());
            return table;
        }

        @Override
        public Cell putValue(int row, int col, Ansi.Text value) {
            Column column = columns()[col];
            if (column.overflow != Column.Overflow.WRAP || value == null
                    || column.indent + value.plainString().length() <= column.width) {
                return super.putValue(row, col, value);
            }
            String plain = value.plainString();
            Ansi.Text indentation = Ansi.OFF.text(" ".repeat(indentWrappedLines));
            Cell last = null;
            int start = 0;
            int room = column.width - column.indent;
            while (start < plain.length()) {
                int end = lineEnd(plain, start, room);
                Ansi.Text line = value.substring(start, end);
                if (last != null) {
                    addEmptyRow();
                    row++;
                    line = indentation.concat(line);
                }
                last = super.putValue(row, col, line);
                start = end;
                while (start < plain.length() && plain.charAt(start) == ' ') {
                    start++;
                }
                room = column.width - column.indent - indentWrappedLines;
            }
            return last;
        }

        /** The end of the line starting at {@code start}: at the last space that fits, else cut at {@code room}. */
        static int lineEnd(String text, int start, int room) {
            if (text.length() - start <= room) {
                return text.length();
            }
            int space = text.lastIndexOf(' ', start + room);
            while (space > start && text.charAt(space - 1) == ' ') {
                space--;
            }
            return space > start ? space : start + Math.max(1, room);
        }
    }
}
