import TestPKI

/// The launch data a device writes after the COSE key (attestation) or the
/// header (assertion), as iOS 27 devices do (spec/app-attest.md, Amendments
/// (round 3)): a map with the chosen validation category and bundle version.
public protocol LaunchDataOptions: Sendable, Hashable {
    /// Append the map of Apple's 2026 sample (category 1, version "1"); a
    /// category or version given below replaces its value.
    var extensions: Bool { get }
    /// The category to write (4 bytes, little-endian); nil: none unless `extensions`.
    var validationCategory: UInt32? { get }
    /// The bundle version text to write (any text); nil: none unless `extensions`.
    var bundleVersion: String? { get }
}

extension LaunchDataOptions {
    /// The map's bytes; empty when no key is chosen (a device before iOS 27).
    var launchMap: [UInt8] {
        SoftwareCA.launchMap(validationCategory: validationCategory ?? (extensions ? 1 : nil),
                             bundleVersion: bundleVersion ?? (extensions ? "1" : nil)) ?? []
    }
}
