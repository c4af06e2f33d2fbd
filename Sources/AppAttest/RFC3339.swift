import Foundation
import StrictCBOR

/// Strict RFC 3339 timestamps (`2024-04-18T16:14:54Z`,
/// `2024-04-18T16:14:54.209Z`, `…+02:00`) without locale-dependent formatters.
public enum RFC3339 {
    /// Parses a timestamp; nil when it is not RFC 3339 (the grammar is
    /// StrictCBOR's ``RFC3339DateTime``, which the CBOR tag 0 check shares).
    public static func parse(_ text: String) -> Date? {
        guard let t = RFC3339DateTime(text.utf8) else { return nil }
        let days = daysFromCivil(year: t.year, month: t.month, day: t.day)
        let seconds = days * 86_400 + t.hour * 3600 + t.minute * 60 + t.second - t.offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + t.fraction)
    }

    /// Latest instant written: 9999-12-31T23:59:59Z.
    static let latest: Double = 253_402_300_799
    /// Earliest instant written: 0000-01-01T00:00:00Z.
    static let earliest: Double = -62_167_219_200

    /// Whether `date` is finite and within years 0000–9999 (what RFC 3339 can write).
    public static func representable(_ date: Date) -> Bool {
        let total = date.timeIntervalSince1970
        return total.isFinite && total >= earliest && total <= latest
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, or with milliseconds when `fractional`;
    /// `(unrepresentable time)` outside years 0000–9999 or when not finite.
    public static func format(_ date: Date, fractional: Bool = false) -> String {
        guard representable(date) else { return "(unrepresentable time)" }
        let total = date.timeIntervalSince1970
        let whole = Int(total.rounded(.down))
        let millis = Int(((total - Double(whole)) * 1000).rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondsOfDay = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):"
            + "\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if fractional { text += ".\(pad(millis, 3))" }
        return text + "Z"
    }

    /// Days since 1970-01-01 (H. Hinnant's civil calendar algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
