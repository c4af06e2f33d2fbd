/// Text from a program under test, cut to what a report may carry: reports
/// keep a bounded amount of whatever an adapter or a server sends, so a
/// reply of megabytes cannot make a report (or the memory of a run) grow with
/// it. The cut is marked with how much was dropped.
public enum BoundedText {
    /// The most a reply's error text, code or a stored request body keeps (4 KiB).
    public static let reportLimit = 4096

    /// `text` when it fits in `limit` UTF-8 bytes; otherwise its longest
    /// prefix that does (whole characters), then `… [cut: N more bytes]`.
    public static func cut(_ text: String, limit: Int = reportLimit) -> String {
        let total = text.utf8.count
        guard total > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if kept + size > limit { break }
            kept += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + "… [cut: \(total - kept) more bytes]"
    }
}
