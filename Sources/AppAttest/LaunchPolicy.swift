import TrustSuiteSupport

/// A server's launch policy over the launch data iOS 27 and macOS 27
/// devices send (docs/models/app-attest.md, Launch policy and macOS 27):
/// which validation categories it accepts, which minimum bundle version,
/// which code-directory hashes (Mac apps), and what to do with devices that
/// send no launch data (iOS 26 and earlier).
///
/// ``AttestationVerifier`` applies it after the nine steps and
/// ``AssertionVerifier`` after the assertion steps. Without a policy the
/// verdicts are as before and the map is only exposed; a policy that sets
/// nothing (``LaunchPolicy/init(allowedValidationCategories:minimumBundleVersion:missingLaunchData:allowedCodeDirectoryHashes:)``
/// with no argument) changes no verdict either.
public struct LaunchPolicy: Sendable, Equatable {
    /// The migration rule for devices before iOS 27: "only" or "only or missing".
    public enum MissingLaunchData: String, Sendable, Hashable, CaseIterable, Codable {
        /// No map, or a map without a key the policy needs, is `launchDataMissing`.
        case reject
        /// Missing launch data passes; data that is present is still checked.
        case allow
    }

    /// The categories accepted (numbers; the names are informational). nil: any.
    public var allowedValidationCategories: Set<UInt32>?
    /// The lowest bundle version accepted. nil: any, and the version's form is not judged.
    public var minimumBundleVersion: BundleVersion?
    /// What to do when launch data is missing; nil: ``missingLaunchDataRule``'s default.
    public var missingLaunchData: MissingLaunchData?
    /// The code-directory hashes accepted (32 or 20 bytes each; a 32-byte
    /// entry also matches a 20-byte hash equal to its first 20 bytes). nil:
    /// any, and a hash is only exposed. Entries of other sizes match nothing
    /// (``isCodeDirectoryHashEntry(_:)`` lets callers refuse them first).
    public var allowedCodeDirectoryHashes: [[UInt8]]?

    public init(
        allowedValidationCategories: Set<UInt32>? = nil, minimumBundleVersion: BundleVersion? = nil,
        missingLaunchData: MissingLaunchData? = nil, allowedCodeDirectoryHashes: [[UInt8]]? = nil
    ) {
        self.allowedValidationCategories = allowedValidationCategories
        self.minimumBundleVersion = minimumBundleVersion
        self.missingLaunchData = missingLaunchData
        self.allowedCodeDirectoryHashes = allowedCodeDirectoryHashes
    }

    /// The rule in force: the one given, else `reject` when the policy
    /// constrains a category, a version or a code-directory hash (a policy
    /// that asks for data expects it) and `allow` when it constrains nothing
    /// (so the empty policy changes no verdict).
    public var missingLaunchDataRule: MissingLaunchData {
        missingLaunchData
            ?? (allowedValidationCategories != nil || minimumBundleVersion != nil || allowedCodeDirectoryHashes != nil ? .reject : .allow)
    }

    /// Whether `bytes` can be an allowlist entry: 32 or 20 bytes.
    public static func isCodeDirectoryHashEntry(_ bytes: [UInt8]) -> Bool {
        LaunchData.codeDirectoryHashLengths.contains(bytes.count)
    }

    /// Whether `hash` is allowed by `entry`: equal to it, or the 20-byte
    /// truncated form of a 32-byte entry. A 20-byte entry does not match a
    /// 32-byte hash (docs/models/app-attest.md, macOS 27).
    public static func codeDirectoryHash(_ hash: [UInt8], matches entry: [UInt8]) -> Bool {
        hash == entry || (entry.count == 32 && hash.count == 20 && entry.prefix(20).elementsEqual(hash))
    }

    /// Applies the policy to the launch data of verified authenticator data
    /// (nil: the device sent no map). Order: missing map, then the category
    /// (missing, then not allowed), then the bundle version (missing, then
    /// not of the form or lower than the minimum), then the code-directory
    /// hash (missing, then not in the allowlist).
    public func check(_ data: LaunchData?) throws(AppAttestError) {
        let rejectsMissing = missingLaunchDataRule == .reject
        guard let data else {
            if rejectsMissing { throw AppAttestError(.launchDataMissing, "no launch data map and the policy rejects missing launch data") }
            return
        }
        if let allowed = allowedValidationCategories {
            if let category = data.validationCategory {
                guard allowed.contains(category) else {
                    let names = allowed.sorted().map(String.init).joined(separator: ", ")
                    throw AppAttestError(
                        .validationCategoryNotAllowed,
                        "validation category \(category) (\(LaunchData.validationCategoryName(category))) is not among the allowed {\(names)}"
                    )
                }
            } else if rejectsMissing {
                throw AppAttestError(.launchDataMissing, "the launch data has no \(LaunchData.validationCategoryKey)")
            }
        }
        if let minimum = minimumBundleVersion {
            if let text = data.bundleVersion {
                guard let version = BundleVersion(text) else {
                    throw AppAttestError(.bundleVersionNotAllowed, "bundle version \"\(text)\" is not dot-separated decimal numbers")
                }
                guard version >= minimum else {
                    throw AppAttestError(.bundleVersionNotAllowed, "bundle version \(text) is below the minimum \(minimum)")
                }
            } else if rejectsMissing {
                throw AppAttestError(.launchDataMissing, "the launch data has no \(LaunchData.bundleVersionKey)")
            }
        }
        if let allowed = allowedCodeDirectoryHashes {
            if let hash = data.codeDirectoryHash {
                guard allowed.contains(where: { Self.codeDirectoryHash(hash, matches: $0) }) else {
                    throw AppAttestError(
                        .codeDirectoryHashNotAllowed,
                        "code-directory hash \(BinaryText.hex(hash)) (\(hash.count) bytes) is not among the \(allowed.count) allowed")
                }
            } else if rejectsMissing {
                throw AppAttestError(.launchDataMissing, "the launch data has no \(LaunchData.codeDirectoryHashKey)")
            }
        }
    }
}
