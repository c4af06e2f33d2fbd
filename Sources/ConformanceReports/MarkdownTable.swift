import Foundation

/// The one Markdown table writer (`matrix --markdown`, `probe --markdown`):
/// a header, then rows of cells. A cell the suite wrote (``Cell/text``) has
/// only its `|` escaped and its line breaks folded; a cell quoting what an
/// implementation or a server said (``Cell/quoted``) becomes code
/// (``MarkdownText``), so it renders as nothing but itself.
public struct MarkdownTable: Sendable {
    public enum Cell: Sendable, Hashable {
        case text(String)
        case quoted(String)
        /// The suite's text, then a quoted part (`refused: <the server's words>`).
        case textThenQuoted(String, String)

        var rendered: String {
            switch self {
            case .text(let text): MarkdownTable.escape(text)
            case .quoted(let text): MarkdownText.cell(text)
            case .textThenQuoted(let text, let quoted): MarkdownTable.escape(text) + MarkdownText.cell(quoted)
            }
        }
    }

    /// Each column's title and alignment (`---`, `---:`).
    public let columns: [(title: Cell, alignment: String)]
    public let rows: [[Cell]]

    public init(columns: [(title: Cell, alignment: String)], rows: [[Cell]]) {
        self.columns = columns
        self.rows = rows
    }

    public var lines: [String] {
        ["| " + columns.map(\.title.rendered).joined(separator: " | ") + " |", "|" + columns.map { $0.alignment + "|" }.joined()]
            + rows.map { "| " + $0.map(\.rendered).joined(separator: " | ") + " |" }
    }

    /// `|` escaped and line breaks folded: what a cell of the suite's own words needs.
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
