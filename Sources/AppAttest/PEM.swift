import Foundation

/// PEM certificate blocks to DER, tolerant of any line length (Apple's
/// published G3 PEM uses 76-character lines).
public enum PEM {
    /// The DER bytes of each `CERTIFICATE` block in `text`, in order; nil when
    /// a block is malformed or there is none.
    public static func certificates(in text: String) -> [[UInt8]]? {
        var blocks: [[UInt8]] = []
        var body: String? = nil
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == "-----BEGIN CERTIFICATE-----" {
                guard body == nil else { return nil }
                body = ""
            } else if line == "-----END CERTIFICATE-----" {
                guard let base64 = body, let der = Data(base64Encoded: base64), !der.isEmpty else { return nil }
                blocks.append([UInt8](der))
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        return body == nil && !blocks.isEmpty ? blocks : nil
    }
}
