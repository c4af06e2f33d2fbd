/// Text from an adapter (its name and version, error text, stderr lines) as
/// it may be printed on a terminal: every control character — C0, DEL and
/// C1, which start escape sequences that can move the cursor, retitle the
/// window or rewrite earlier lines of the scorecard — is shown as `\u{…}`
/// (`\n`, `\r`, `\t` as themselves escaped), so one adapter line stays one
/// line and nothing it sends is executed (issue 22 item 6: the round-3
/// audit saw adapter bytes reach the terminal raw). Bidirectional controls
/// (U+202E and its kin, which reorder what follows them on the screen) and
/// the Unicode line and paragraph separators are shown the same way (issue
/// 44 item 6). The JSON and JUnit reports keep the text as the adapter sent
/// it; only the terminal (and Markdown, `MarkdownText`) gets this form.
public enum TerminalText {
    /// Whether `scalar` reorders text (the bidirectional controls: marks,
    /// embeddings, overrides, isolates) or breaks a line outside C0.
    static func isLayoutControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    public static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            case _ where isLayoutControl(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
