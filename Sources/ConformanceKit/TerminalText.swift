/// Text from an adapter (its name and version, error text, stderr lines) as
/// it may be printed on a terminal: every control character — C0, DEL and
/// C1, which start escape sequences that can move the cursor, retitle the
/// window or rewrite earlier lines of the scorecard — is shown as `\u{…}`
/// (`\n`, `\r`, `\t` as themselves escaped), so one adapter line stays one
/// line and nothing it sends is executed (issue 22 item 6: the round-3
/// audit saw adapter bytes reach the terminal raw). The JSON and JUnit
/// reports keep the text as the adapter sent it; only the terminal gets
/// this form.
public enum TerminalText {
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
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
