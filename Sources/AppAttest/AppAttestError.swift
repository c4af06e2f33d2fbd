/// The single error type of ``AppAttest``: a stable code from
/// docs/vectors.md (attestation, assertion and receipt codes) and a human
/// reason. The code identifies the verification step that refused (each
/// step of Apple's procedure has its own code; parsing has the `malformed…`
/// codes), so no separate step number is carried.
public struct AppAttestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable error codes shared with the vectors. Add codes; never rename one.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        // Attestation
        case malformedAttestationObject
        case unsupportedFormat
        case missingCertificates
        case certificateChainInvalid
        case nonceExtensionMissing
        case nonceMismatch
        case keyIdMismatch
        case rpIdMismatch
        case counterNotZero
        case aaguidMismatch
        case credentialIdMismatch
        case malformedAuthenticatorData
        case malformedCredentialPublicKey
        // Assertion
        case malformedAssertion
        case signatureInvalid
        case counterNotIncreasing
        /// The application's challenge hook refused the client data (added code).
        case challengeMismatch
        // Launch policy (attestation and assertion; docs/models/app-attest.md)
        /// The validation category is not in the policy's allowed set.
        case validationCategoryNotAllowed
        /// The bundle version is below the policy's minimum, or not dotted decimals while a minimum is set.
        case bundleVersionNotAllowed
        /// The policy rejects missing launch data: no map, or no key the policy needs.
        case launchDataMissing
        /// The code-directory hash (macOS 27 launch data) is not in the policy's allowlist.
        case codeDirectoryHashNotAllowed
        // Receipt
        case malformedReceipt
        case receiptSignatureInvalid
        case receiptChainInvalid
        case receiptAppIdMismatch
        case receiptKeyMismatch
        case receiptExpired
        case receiptTooOld
        /// The signer is not Apple's receipt-signing certificate (marker, end entity, one intermediate).
        case receiptSignerInvalid
        /// Created after the validation time, or validated before field 19.
        case receiptNotYetValid
        /// Field 6 is not the type the caller needs (`ATTEST` inside an attestation).
        case receiptTypeMismatch
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    public static func == (lhs: AppAttestError, rhs: AppAttestError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
