import StrictCBOR

/// WebAuthn authenticator data as App Attest sends it (docs/models/app-attest.md):
/// rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian) ‖ when AT and
/// bytes follow: aaguid (16) ‖ credentialIdLength (2) ‖ credentialId ‖
/// COSE_Key ‖ optional trailing CBOR extension map.
///
/// Keeps its exact bytes: the nonce is computed over them, never over a
/// re-encoding.
public struct AuthenticatorData: Sendable, Hashable {
    /// Flag bits (WebAuthn §6.1).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 1 << 0)
        public static let userVerified = Flags(rawValue: 1 << 2)
        public static let backupEligible = Flags(rawValue: 1 << 3)
        public static let backupState = Flags(rawValue: 1 << 4)
        public static let attestedCredentialData = Flags(rawValue: 1 << 6)
        public static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// Attested credential data (present in attestations).
    public struct CredentialData: Sendable, Hashable {
        public let aaguid: [UInt8]
        public let credentialId: [UInt8]
        public let publicKey: COSEKey
    }

    /// Length of rpIdHash ‖ flags ‖ signCount.
    public static let fixedLength = 37
    /// Longest credential id accepted (WebAuthn caps it at 1023 bytes).
    public static let maxCredentialIdLength = 1023

    public let bytes: [UInt8]
    public let rpIdHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let credential: CredentialData?
    /// The trailing CBOR map after the credential key, if any (exposed
    /// whether or not ED is set: iOS 27 sends one with ED clear).
    public let extensions: CBORItem?
    /// The `apple_*` launch data read from ``extensions`` (nil when there is
    /// no map); a known key of the wrong type or size made parsing fail.
    public let launchData: LaunchData?

    /// Where the authenticator data comes from, which fixes what may follow
    /// the 37-byte header.
    public enum Layout: Sendable, Hashable {
        /// Attested credential data when AT is set, then an optional map;
        /// ED set with nothing after the key is malformed.
        case attestation
        /// No credential data whatever the flags (real assertions set AT
        /// with none); after the header, nothing or exactly one CBOR map
        /// (ctap2 rules), which iOS 27 devices append. The flags decide nothing.
        case assertion
    }

    public init(bytes: [UInt8], layout: Layout = .attestation) throws(AppAttestError) {
        guard bytes.count >= Self.fixedLength else {
            throw Self.malformed("authenticator data has \(bytes.count) bytes, at least 37 needed")
        }
        self.bytes = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }

        var offset = Self.fixedLength
        if layout == .attestation && flags.contains(.attestedCredentialData) && offset < bytes.count {
            guard bytes.count - offset >= 18 else {
                throw Self.malformed("attested credential data cut short (aaguid and id length need 18 bytes)")
            }
            let aaguid = Array(bytes[offset..<(offset + 16)])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength <= Self.maxCredentialIdLength, idLength <= bytes.count - offset else {
                throw Self.malformed("credential id length \(idLength) exceeds the bytes that remain")
            }
            let credentialId = Array(bytes[offset..<(offset + idLength)])
            offset += idLength
            let key: CBORItem
            let consumed: Int
            do {
                (key, consumed) = try CBORDecoder(mode: .ctap2).decodeFirst(bytes[offset...])
            } catch {
                throw AppAttestError(.malformedCredentialPublicKey, "credential public key: \(error)")
            }
            credential = CredentialData(aaguid: aaguid, credentialId: credentialId, publicKey: try COSEKey(cbor: key))
            offset += consumed
        } else {
            credential = nil
        }

        if offset < bytes.count {
            do {
                let map = try CBORDecoder(mode: .ctap2).decode(bytes[offset...])
                launchData = try LaunchData(map: map)
                extensions = map
            } catch let error as AppAttestError {
                throw error
            } catch {
                throw Self.malformed("trailing extension data: \(error)")
            }
        } else if layout == .attestation && flags.contains(.extensionData) {
            throw Self.malformed("ED flag set but no extension data follows")
        } else {
            extensions = nil
            launchData = nil
        }
    }

    static func malformed(_ reason: String) -> AppAttestError { AppAttestError(.malformedAuthenticatorData, reason) }
}
