import Foundation

/// Text as it goes into XML 1.0 (the JUnit reports).
public enum XMLText {
    /// Character-data escaping (newlines and tabs kept).
    public static func text(_ text: String) -> String {
        attribute(text).replacingOccurrences(of: "&#10;", with: "\n").replacingOccurrences(of: "&#9;", with: "\t")
    }

    /// Attribute escaping; characters XML 1.0 cannot carry (C0 controls but
    /// tab and newline, U+FFFE, U+FFFF) are dropped: a report holding them
    /// is not well-formed (issue 44 item 6).
    public static func attribute(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
