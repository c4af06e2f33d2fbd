#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TrustSuiteSupport

/// The disagreements between the reference and a second implementation
/// (OpenSSL; libcbor for the CBOR differential) that the differential
/// harnesses accept, each because the two follow different
/// documented rules. A harness names the classes a disagreement belongs to
/// (decided from the input, in code); it is excused only when one of them is
/// listed, with its reason, in `Fuzz/known-disagreements.json`. Anything
/// else is a finding. Removing an entry from the file makes its inputs
/// findings again.
public enum Disagreement: String, CaseIterable, Sendable {
    /// A certificate of the path expires exactly at the validation time.
    case notAfterInstant
    /// A certificate (the leaf, or one a receipt carries) does not parse as
    /// the reference reads certificates, while OpenSSL reads it.
    case certificateEncoding
    /// The reference's receipt parser refuses a CMS message OpenSSL reads.
    case receiptShape
    /// The leaf's issuer matches the intermediate's subject only when case
    /// and spaces are folded (OpenSSL folds; swift-certificates compares exactly).
    case nameFolding
    /// The leaf carries a critical extension that RFC 5280 validation in
    /// the reference does not process (OpenSSL recognizes more).
    case criticalExtension
    /// The receipt's signer has a key usage without digitalSignature and
    /// nonRepudiation (OpenSSL's S/MIME purpose refuses it at CMS_verify;
    /// the reference refuses it one step later, at the signer check).
    case signerKeyUsage
    /// libcbor reads a map with two keys equal in the data model, which
    /// StrictCBOR refuses (RFC 8949 §5.6).
    case duplicateMapKey
    /// The item nests arrays, maps and tags deeper than StrictCBOR's default
    /// limit (64); libcbor has none.
    case nestingLimit
    /// libcbor 0.8 refuses the unassigned simple values (0–19 in one byte,
    /// 32–255 in two), which RFC 8949 §3.3 makes well-formed.
    case unassignedSimpleValue
    /// libcbor widens every half-precision NaN to the default NaN, dropping
    /// the payload StrictCBOR keeps.
    case halfNaNPayload
    /// libcbor 0.8 refuses the one-byte tag heads 0xc6–0xd4 (tag numbers
    /// 6–20), which RFC 8949 §3.4 makes well-formed.
    case shortTagHead
}

public enum KnownDisagreements {
    /// The file's name, in Fuzz/ and beside the harness binaries on OSS-Fuzz.
    public static let fileName = "known-disagreements.json"

    /// One entry of the file.
    public struct Entry: Decodable, Sendable, Equatable {
        public let id: String
        public let harnesses: [String]
        public let reason: String
    }

    /// Where the file is looked for: `TRUSTSUITE_KNOWN_DISAGREEMENTS`, then
    /// beside the running executable (OSS-Fuzz's `$OUT`), then `Fuzz/` of
    /// the source tree this module was built from.
    public static var candidatePaths: [String] {
        var paths: [String] = []
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_KNOWN_DISAGREEMENTS"], !path.isEmpty { paths.append(path) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            paths.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(fileName).path)
        }
        paths.append(Checkout.path("Fuzz", fileName).path)
        return paths
    }

    /// The entries of the first file found (empty when none is: then every
    /// disagreement is a finding).
    public static let entries: [Entry] = {
        for path in candidatePaths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
        }
        return []
    }()

    /// Whether one of `classes` is listed for `harness`.
    public static func excuses(_ classes: [Disagreement], harness: String, entries: [Entry] = entries) -> Bool {
        classes.contains { kind in entries.contains { $0.id == kind.rawValue && $0.harnesses.contains(harness) } }
    }

    /// The oracle's verdict on a disagreement: none when one of its classes
    /// is listed, else the finding.
    static func judge(
        _ harness: Harness, _ description: String, classes: [Disagreement], other: String = "OpenSSL",
        entries: [Entry] = entries
    ) -> [String] {
        excuses(classes, harness: harness.rawValue, entries: entries)
            ? []
            : [
                "unexplained disagreement with \(other): \(description)"
                    + (classes.isEmpty ? "" : " (classes \(classes.map(\.rawValue)), none listed in \(fileName))")
            ]
    }
}
