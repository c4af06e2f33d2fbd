import Foundation

/// Text the suite did not write (adapter names, error texts, declared
/// capabilities and caller checks; a probed server's answers) as it goes
/// into a Markdown report, so that a PR comment renders only what the suite
/// wrote (issue 44 item 6: `matrix --markdown` carried HTML tags, Markdown
/// images and links, CR and ESC raw).
///
/// Text made only of letters, digits, spaces and `,.-+()=/` (no `www.`)
/// cannot render as anything but itself and is written as it is (`cbor2
/// 5.6.5`, `keyId, counter`). Any other text becomes one inline code span:
/// inside it GitHub renders no HTML, no emphasis, no link, image or
/// autolink. Control and bidirectional characters are first shown as
/// `\u{…}` (`TerminalText`), so a span never holds a newline and a terminal
/// printing the Markdown executes nothing; the fence is one backtick longer
/// than the longest run of backticks in the text; in a table cell `|` is
/// escaped, as GitHub requires even in code.
public enum MarkdownText {
    public static func code(_ text: String, inTable: Bool = false) -> String {
        if isPlain(text) { return text }
        var shown = TerminalText.escape(text)
        if inTable { shown = shown.replacingOccurrences(of: "|", with: "\\|") }
        var longest = 0, run = 0
        for character in shown {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A space inside the fence when the text starts or ends with a
        // backtick (or a space, which the renderer would strip).
        let pad = shown.first == "`" || shown.last == "`" || shown.first == " " || shown.last == " " ? " " : ""
        return fence + pad + shown + pad + fence
    }

    /// Whether `text` renders as itself in Markdown, anywhere in a line.
    static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || " ,.-+()=/".unicodeScalars.contains(scalar)
        } && !text.lowercased().contains("www.") && !text.hasPrefix(" ") && !text.hasSuffix(" ")
    }

    /// `code(text, inTable: true)`.
    public static func cell(_ text: String) -> String { code(text, inTable: true) }
}
