import TestPKI

/// The platform whose launch data a device writes (docs/models/app-attest.md,
/// Launch policy and macOS 27).
public enum LaunchPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    /// An iPhone or iPad: a map only when a launch-data option asks for one.
    case ios
    /// A Mac on macOS 27 (`--platform macos`): always a map — category 6
    /// (Developer ID) and bundle version "1" unless given, and the
    /// code-directory hash keys (type 2, SHA-256; the hash given, else a
    /// stand-in hash of the App ID) unless left out.
    case macos
}

/// The launch data a device writes after the COSE key (attestation) or the
/// header (assertion), as iOS 27 and macOS 27 devices do
/// (docs/models/app-attest.md, Launch policy and macOS 27): a map with the
/// chosen validation category and bundle version, and on a Mac the
/// code-directory hash and its type.
public protocol LaunchDataOptions: Sendable, Hashable {
    /// Append the map of Apple's 2026 sample (category 1, version "1"); a
    /// category or version given below replaces its value.
    var extensions: Bool { get }
    /// The category to write (4 bytes, little-endian); nil: none unless
    /// `extensions` (1) or the macOS platform (6).
    var validationCategory: UInt32? { get }
    /// The bundle version text to write (any text); nil: none unless
    /// `extensions` or the macOS platform ("1").
    var bundleVersion: String? { get }
    /// The platform whose shape to write (default iOS).
    var platform: LaunchPlatform { get }
    /// The code-directory hash to write, on any platform, with type 2
    /// (SHA-256). Real devices write 32 bytes or the 20-byte truncated
    /// CDHash; other sizes are written as given (a malformed map that
    /// verifiers refuse). nil: a stand-in hash of the App ID on macOS
    /// (``AppleExtensions/codeDirectoryHash(appId:)``), none on iOS.
    var codeDirectoryHash: [UInt8]? { get }
    /// On macOS, write no code-directory hash keys: a Mac app built without
    /// the hash option (the iOS keys with category 6).
    var omitCodeDirectoryHash: Bool { get }
}

extension LaunchDataOptions {
    /// The code-directory hash this device writes for an object made for
    /// `appId`, or nil: what a server puts in its allowlist.
    public func writtenCodeDirectoryHash(appId: String) -> [UInt8]? {
        if let codeDirectoryHash { return codeDirectoryHash }
        guard platform == .macos, !omitCodeDirectoryHash else { return nil }
        return AppleExtensions.codeDirectoryHash(appId: appId)
    }

    /// The map's bytes for an object made for `appId`; empty when no key is
    /// chosen (a device before iOS 27).
    func launchMap(appId: String) -> [UInt8] {
        let mac = platform == .macos
        let hash = writtenCodeDirectoryHash(appId: appId)
        return SoftwareCA.launchMap(
            validationCategory: validationCategory ?? (mac ? AppleExtensions.macCategory : extensions ? 1 : nil),
            bundleVersion: bundleVersion ?? (extensions || mac ? "1" : nil),
            codeDirectoryHashType: hash == nil ? nil : AppleExtensions.sha256HashType, codeDirectoryHash: hash) ?? []
    }
}
