import Foundation

/// What an implementation may be called (issue 44, item 9). A list's name
/// is also the adapter's folder beside the list (its error map), and every
/// name is printed, so a name must be a plain one: `../outside` read a map
/// outside the list's folder, and two names differing by a zero-width
/// space were both accepted.
extension AdapterList {
    /// Longest name in a list.
    public static let maxNameLength = 64

    /// ASCII letters, digits, `.`, `_`, `+` and `-`, starting with a letter
    /// or digit, at most ``maxNameLength`` characters: never a path (no
    /// `/`, no `.` or `..`, no leading dot), never invisible.
    public static func isPlainName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= maxNameLength else { return false }
        return isLetterOrDigit(first) && scalars.allSatisfy { isLetterOrDigit($0) || "._+-".unicodeScalars.contains($0) }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// The first character of `name` that does not show as itself: control
    /// and format characters (zero-width spaces and joiners, bidirectional
    /// controls), default-ignorable ones (variation selectors, fillers),
    /// separators and whitespace other than the space, private-use and
    /// unassigned code points. Nil when there is none.
    public static func invisibleCharacter(in name: String) -> Unicode.Scalar? {
        name.unicodeScalars.first { scalar in
            let properties = scalar.properties
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                return true
            default:
                return properties.isDefaultIgnorableCodePoint || (properties.isWhitespace && scalar != " ")
            }
        }
    }

    /// `name` for a message: printable ASCII as it is, anything else as
    /// `\u{…}`, at most 100 characters.
    public static func shown(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars.prefix(100) {
            if scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F {
                text.unicodeScalars.append(scalar)
            } else {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return name.unicodeScalars.count > 100 ? text + "…" : text
    }
}
