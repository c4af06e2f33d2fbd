/// The fields of an RFC 3339 `date-time` (§5.6), each checked for range.
///
/// One grammar serves the decoder's tag 0 check (RFC 8949 §3.4.1, with the
/// RFC 4287 §3.3 refinement: upper-case `T` and `Z`) and App Attest's
/// timestamps (which also take `t`, `z` and a space as RFC 3339's note allows).
public struct RFC3339DateTime: Sendable, Hashable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    /// 0–60: RFC 3339 allows a leap second.
    public let second: Int
    /// The `time-secfrac` digits as a fraction of a second (0 when absent).
    public let fraction: Double
    /// The `time-offset` in seconds east of UTC (0 for `Z`).
    public let offsetSeconds: Int
    /// Whether the date and time are separated by an upper-case `T` and a
    /// `Z` zone is upper case: the form RFC 4287 §3.3 (and so RFC 8949
    /// §3.4.1) requires. A lower-case `t` or `z` or a space is RFC 3339 only.
    public let isRFC4287Form: Bool

    /// Parses `full-date "T" full-time`; nil when `text` is anything else (a
    /// date alone, a time alone, a field out of range, trailing bytes).
    public init?(_ text: some Collection<UInt8>) {
        let b = Array(text)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        // full-date "T" partial-time: `YYYY-MM-DDTHH:MM:SS`, at least a zone after it.
        guard b.count >= 20, let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D,
            let day = digits(8, 2), b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20,
            let hour = digits(11, 2), b[13] == 0x3A, let minute = digits(14, 2), b[16] == 0x3A,
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, (0x30...0x39).contains(b[index]) {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        var upperCase = b[10] == 0x54
        if b[index] == 0x5A || b[index] == 0x7A {
            upperCase = upperCase && b[index] == 0x5A
            index += 1
        } else if b[index] == 0x2B || b[index] == 0x2D {
            guard let oh = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == 0x3A,
                let om = digits(index + 4, 2), oh < 24, om < 60
            else { return nil }
            offset = (oh * 60 + om) * 60 * (b[index] == 0x2B ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        self.fraction = fraction
        self.offsetSeconds = offset
        self.isRFC4287Form = upperCase
    }

    /// Days in `month` of `year` (proleptic Gregorian calendar).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
