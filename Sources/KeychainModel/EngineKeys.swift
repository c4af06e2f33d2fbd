import Crypto
import Foundation
import KeychainAccessControl

/// A P-256 key a `SecKey` refers to: software or Secure Enclave (K1–K4).
struct KeyMaterial: Sendable {
    var privateKey: P256.Signing.PrivateKey?
    var publicKey: P256.Signing.PublicKey
    var secureEnclave: Bool
    /// The keychain item holding the key, when it is permanent.
    var item: Int?
    /// The access control bound at creation.
    var access: AccessControl?
    /// The LAContext the key was created or fetched with (its operations authenticate there).
    var context: Int?
    /// The `kSecUseAuthenticationUI` of the query that fetched the key (its operations honour it).
    var authenticationUI: SecQuery.AuthenticationUI = .allow
    var tag: [UInt8]
    var label: String?

    /// X9.63: `04‖X‖Y` for a public key, `04‖X‖Y‖K` for a software private key.
    var externalBytes: [UInt8] {
        if let privateKey { return Array(publicKey.x963Representation) + Array(privateKey.rawRepresentation) }
        return Array(publicKey.x963Representation)
    }

    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key (P2).
    var applicationLabel: [UInt8] { Array(Insecure.SHA1.hash(data: publicKey.x963Representation)) }

    /// The attributes a key item of this material stores.
    var itemAttributes: [String: SecValue] {
        var result: [String: SecValue] = [
            SecName.kSecAttrKeyClass: .number(privateKey != nil || secureEnclave ? 1 : 0), SecName.kSecAttrKeyType: .number(73),
            SecName.kSecAttrKeySizeInBits: .number(256),
            SecName.kSecAttrEffectiveKeySize: .number(256), SecName.kSecAttrApplicationLabel: .data(applicationLabel),
            SecName.kSecAttrApplicationTag: .data(tag), SecName.kSecAttrIsPermanent: .bool(true),
            SecName.kSecAttrCanSign: .bool(privateKey != nil || secureEnclave),
            SecName.kSecAttrCanVerify: .bool(privateKey == nil && !secureEnclave),
        ]
        if secureEnclave { result[SecName.kSecAttrTokenID] = .string(SecName.kSecAttrTokenIDSecureEnclave) }
        if let label { result[SecName.kSecAttrLabel] = .string(label) }
        return result
    }
}

/// SecKeyAlgorithm strings this model implements (rule book §1b).
enum KeyAlgorithm: String {
    case messageX962SHA256 = "algid:sign:ECDSA:message-X962:SHA256"
    case digestX962SHA256 = "algid:sign:ECDSA:digest-X962:SHA256"
    case rfc4754 = "algid:sign:ECDSA:RFC4754"
}

/// A SHA-256 digest handed in by the caller (`…digest-X962:SHA256`).
struct CallerDigest: Digest {
    static let byteCount = 32
    let bytes: [UInt8]

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { "digest(\(bytes.count) bytes)" }
}

extension KeychainEngine {
    func failure(_ status: SecStatus, _ rule: SecRule, _ reason: String, la: LAErrorCode? = nil) -> SecFailure {
        SecFailure(status, rule: rule, reason, laCode: la?.rawValue)
    }

    mutating func finishKey<T>(
        _ call: String, _ result: Result<T, SecFailure>, rule: SecRule, _ reason: String, prompts: Int = 0
    ) -> Result<T, SecFailure> {
        switch result {
        case .success: log(call, status: 0, Ruling(rule, reason), prompts: prompts)
        case .failure(let failure): log(call, status: Int32(truncatingIfNeeded: failure.code), failure.ruling, prompts: prompts)
        }
        return result
    }

    // MARK: SecAccessControl

    /// `SecAccessControlCreateWithFlags`: `protection` is the value passed
    /// (a `kSecAttrAccessible…` string), `flags` the raw option bits. Never
    /// looks at the device (AC1).
    public mutating func createAccessControl(protection: SecValue, flags: UInt64) -> Result<SecAccessControlValue, SecFailure> {
        let result: Result<SecAccessControlValue, SecFailure>
        if let name = protection.stringValue, let value = ProtectionClass(rawValue: name) {
            let known = AccessControlFlags.canonicalNames.reduce(UInt64(0)) { $0 | UInt64($1.1.rawValue) }
            if flags & ~known != 0 {
                result = .failure(failure(.param, .ac1, "unknown access-control flag bits 0x\(String(flags & ~known, radix: 16))"))
            } else {
                let set = AccessControlFlags(rawValue: UInt32(truncatingIfNeeded: flags))
                do {
                    try AccessControl.validate(set)
                    result = .success(SecAccessControlValue(protection: value, flags: set))
                } catch {
                    result = .failure(failure(.param, .ac1, error.reason))
                }
            }
        } else {
            result = .failure(failure(.param, .ac1, "\(protection.shortDescription) is not a kSecAttrAccessible value"))
        }
        return finishKey("SecAccessControlCreateWithFlags", result, rule: .ac1, "created; the device is looked at when an item binds it")
    }

    // MARK: SecKey

    /// `SecKeyCreateRandomKey`: the new private key's id.
    public mutating func createRandomKey(_ parameters: [String: SecValue]) -> Result<Int, SecFailure> {
        finishKey("SecKeyCreateRandomKey", makeRandomKey(parameters), rule: .k1, "key created")
    }

    mutating func makeRandomKey(_ parameters: [String: SecValue]) -> Result<Int, SecFailure> {
        var merged = parameters
        if merged[SecName.kSecUseAuthenticationUI] == .string(SecName.kSecUseAuthenticationUISkip) {
            return .failure(failure(.param, .a12, "kSecUseAuthenticationUISkip is for SecItemCopyMatching only"))
        }
        if case .dictionary(let privateAttributes)? = parameters[SecName.kSecPrivateKeyAttrs] {
            for (name, value) in privateAttributes { merged[name] = value }
        }
        switch merged[SecName.kSecAttrKeyType]?.normalized(for: SecName.kSecAttrKeyType) {
        case .number(73)?: break
        case .number(42)?: return .failure(failure(.unimplemented, .k3, "RSA keys are out of this model's scope (P-256 only)"))
        default: return .failure(failure(.param, .k3, "kSecAttrKeyType is missing or unknown"))
        }
        let size = merged[SecName.kSecAttrKeySizeInBits]?.normalized(for: SecName.kSecAttrKeySizeInBits) ?? .number(256)
        let secureEnclave: Bool
        switch merged[SecName.kSecAttrTokenID] {
        case nil: secureEnclave = false
        case .string(SecName.kSecAttrTokenIDSecureEnclave)?: secureEnclave = true
        case let other?:
            return .failure(failure(.itemNotFound, .ac10, "token \(other.shortDescription) is not present (TKError.tokenNotFound)"))
        }
        guard size == .number(256) else {
            if secureEnclave { return .failure(failure(.param, .k2, "the Secure Enclave makes 256-bit EC keys only")) }
            return .failure(failure(.unimplemented, .k3, "only P-256 keys are in this model's scope"))
        }
        let permanent = merged[SecName.kSecAttrIsPermanent]?.boolValue ?? secureEnclave
        var publicAttributes: [String: SecValue] = [:]
        if case .dictionary(let attributes)? = parameters[SecName.kSecPublicKeyAttrs] { publicAttributes = attributes }
        // K1′ (§9): kSecAttrIsPermanent at the top level or in kSecPublicKeyAttrs stores the public key item too.
        let publicPermanent =
            !secureEnclave && (publicAttributes[SecName.kSecAttrIsPermanent] ?? parameters[SecName.kSecAttrIsPermanent])?.boolValue == true
        var access: AccessControl?
        if case .accessControl(let control)? = merged[SecName.kSecAttrAccessControl] {
            if merged[SecName.kSecAttrAccessible] != nil {
                return .failure(failure(.param, .a8, "kSecAttrAccessible beside a kSecAttrAccessControl conflicts"))
            }
            switch bind(protection: control.protection, flags: control.flags) {
            case .failure(let outcome): return .failure(SecFailure(outcome.status, outcome.ruling))
            case .success(let bound): access = bound
            }
        } else if merged[SecName.kSecAttrAccessControl] != nil {
            return .failure(failure(.param, .q16, "kSecAttrAccessControl must be a SecAccessControl"))
        } else if secureEnclave, let name = merged[SecName.kSecAttrAccessible]?.stringValue,
            let protection = ProtectionClass(rawValue: name)
        {
            // K5: the token keeps the protection the caller asked for; the item itself is always accessible.
            switch bind(protection: protection, flags: []) {
            case .failure(let outcome): return .failure(SecFailure(outcome.status, outcome.ruling))
            case .success(let bound): access = bound
            }
        }
        let privateKey = P256.Signing.PrivateKey()
        let tag =
            merged[SecName.kSecAttrApplicationTag]?.normalized(for: SecName.kSecAttrApplicationTag).flatMap { value -> [UInt8]? in
                if case .data(let bytes) = value { return bytes }
                return nil
            } ?? []
        let context: Int? = if case .context(let id)? = merged[SecName.kSecUseAuthenticationContext] { id } else { nil }
        let material = KeyMaterial(
            privateKey: secureEnclave ? privateKey : privateKey, publicKey: privateKey.publicKey,
            secureEnclave: secureEnclave, item: nil, access: access, context: context, tag: tag,
            label: merged[SecName.kSecAttrLabel]?.stringValue)
        let id = nextKey
        nextKey += 1
        keys[id] = material
        if permanent {
            var attributes: [String: SecValue] = [SecName.kSecClass: .string(SecName.kSecClassKey)]
            for name in [
                SecName.kSecAttrAccessGroup, SecName.kSecAttrLabel, SecName.kSecAttrAccessible, SecName.kSecAttrAccessControl,
                SecName.kSecAttrSynchronizable,
            ] where merged[name] != nil { attributes[name] = merged[name] }
            if secureEnclave {
                // K5 (§9): a token item is stored always accessible and without
                // kSecAttrAccessControl; the access control travels in the token.
                attributes[SecName.kSecAttrAccessible] = .string(ProtectionClass.dk.rawValue)
                attributes[SecName.kSecAttrAccessControl] = nil
            }
            if let tagValue = merged[SecName.kSecAttrApplicationTag] { attributes[SecName.kSecAttrApplicationTag] = tagValue }
            let outcome = Self.answer { () throws(SecOutcome) in try addItem(attributes, wantsResult: false, keyMaterial: id) }
            guard outcome.status == .success else {
                keys[id] = nil
                return .failure(SecFailure(outcome.status, outcome.ruling))
            }
        }
        if publicPermanent {
            var attributes: [String: SecValue] = [SecName.kSecClass: .string(SecName.kSecClassKey)]
            for name in [
                SecName.kSecAttrAccessGroup, SecName.kSecAttrLabel, SecName.kSecAttrSynchronizable, SecName.kSecAttrApplicationTag,
            ] {
                if let value = publicAttributes[name] ?? parameters[name] { attributes[name] = value }
            }
            if let protection = publicAttributes[SecName.kSecAttrAccessible] ?? parameters[SecName.kSecAttrAccessible] {
                attributes[SecName.kSecAttrAccessible] = protection
            }
            let publicID = nextKey
            nextKey += 1
            keys[publicID] = KeyMaterial(
                privateKey: nil, publicKey: material.publicKey, secureEnclave: false, tag: material.tag, label: material.label)
            let outcome = Self.answer { () throws(SecOutcome) in try addItem(attributes, wantsResult: false, keyMaterial: publicID) }
            keys[publicID] = nil
            guard outcome.status == .success else {
                return .failure(SecFailure(outcome.status, outcome.ruling))
            }
        }
        return .success(id)
    }

    /// `SecKeyCreateWithData` (a public key from X9.63 bytes, or a software private key).
    public mutating func createKey(data: [UInt8], attributes: [String: SecValue]) -> Result<Int, SecFailure> {
        let result: Result<Int, SecFailure>
        if attributes[SecName.kSecAttrTokenID] != nil {
            result = .failure(failure(.param, .k2, "a Secure Enclave key must be generated there; it cannot be imported"))
        } else if attributes[SecName.kSecAttrKeyType]?.normalized(for: SecName.kSecAttrKeyType) != .number(73) {
            result = .failure(failure(.param, .k3, "kSecAttrKeyType must be kSecAttrKeyTypeECSECPrimeRandom"))
        } else {
            let keyClass = attributes[SecName.kSecAttrKeyClass]?.normalized(for: SecName.kSecAttrKeyClass)
            var material: KeyMaterial?
            if keyClass == .number(0), let key = try? P256.Signing.PublicKey(x963Representation: data) {
                material = KeyMaterial(privateKey: nil, publicKey: key, secureEnclave: false, tag: [])
            } else if keyClass == .number(1), data.count == 97, let key = try? P256.Signing.PrivateKey(rawRepresentation: data.suffix(32)),
                Array(key.publicKey.x963Representation) == Array(data.prefix(65))
            {
                material = KeyMaterial(privateKey: key, publicKey: key.publicKey, secureEnclave: false, tag: [])
            }
            if let material {
                let id = nextKey
                nextKey += 1
                keys[id] = material
                result = .success(id)
            } else {
                result = .failure(failure(.param, .k2, "the bytes are not an X9.63 P-256 key of the class named"))
            }
        }
        return finishKey("SecKeyCreateWithData", result, rule: .k2, "a software P-256 key imported from its X9.63 bytes")
    }

    /// `SecKeyCopyPublicKey`.
    public mutating func publicKey(of key: Int) -> Int? {
        guard let material = keys[key] else { return nil }
        let id = nextKey
        nextKey += 1
        keys[id] = KeyMaterial(privateKey: nil, publicKey: material.publicKey, secureEnclave: false, tag: material.tag)
        return id
    }

    /// `SecKeyCopyExternalRepresentation`: a Secure Enclave private key never exports (K2).
    public mutating func externalRepresentation(of key: Int) -> Result<[UInt8], SecFailure> {
        let result: Result<[UInt8], SecFailure>
        if let material = keys[key] {
            result =
                material.secureEnclave
                ? .failure(failure(.unimplemented, .k2, "a Secure Enclave private key cannot be exported"))
                : .success(material.externalBytes)
        } else {
            result = .failure(failure(.invalidItemRef, .k2, "no such key"))
        }
        return finishKey("SecKeyCopyExternalRepresentation", result, rule: .k2, "exported as X9.63 bytes")
    }

    /// `SecKeyCopyAttributes`.
    public func keyAttributes(of key: Int) -> [String: SecValue]? {
        guard let material = keys[key] else { return nil }
        var result = material.itemAttributes
        result[SecName.kSecClass] = .string(SecName.kSecClassKey)
        result[SecName.kSecAttrIsPermanent] = .bool(material.item != nil)
        return result
    }

    /// `SecKeyIsAlgorithmSupported`: `operation` is `SecKeyOperationType`'s raw value (sign 0, verify 1).
    public func isAlgorithmSupported(key: Int, operation: Int, algorithm: String) -> Bool {
        guard let material = keys[key], KeyAlgorithm(rawValue: algorithm) != nil else { return false }
        switch operation {
        case 0: return material.privateKey != nil
        case 1: return true
        default: return false
        }
    }

    /// `SecKeyCreateSignature`: ECDSA P-256; a key with an access control
    /// authenticates first (Secure Enclave keys hand LocalAuthentication's
    /// error on unconverted: K4).
    public mutating func sign(key: Int, algorithm: String, data: [UInt8]) -> Result<[UInt8], SecFailure> {
        var prompts = 0
        let result = makeSignature(key: key, algorithm: algorithm, data: data, prompts: &prompts)
        return finishKey("SecKeyCreateSignature", result, rule: .k2, "signed with ECDSA P-256", prompts: prompts)
    }

    mutating func makeSignature(key: Int, algorithm: String, data: [UInt8], prompts: inout Int) -> Result<[UInt8], SecFailure> {
        guard let material = keys[key] else { return .failure(failure(.invalidItemRef, .k2, "no such key")) }
        guard let privateKey = material.privateKey else { return .failure(failure(.param, .k2, "a public key cannot sign")) }
        guard let kind = KeyAlgorithm(rawValue: algorithm) else {
            return .failure(failure(.param, .k2, "algorithm \(algorithm) is not supported for a P-256 key"))
        }
        if let access = material.access {
            if material.secureEnclave && !access.flags.contains(.privateKeyUsage) {
                return .failure(
                    failure(
                        .authFailed, .ac3, "the key's access control lacks privateKeyUsage: it has no sign entry", la: .operationNotAllowed
                    ))
            }
            if let refusal = authorize(
                access, .useKeySign, context: material.context, ui: material.authenticationUI, reason: nil,
                call: "SecKeyCreateSignature", prompts: &prompts),
                case .status(let status, let ruling, let la) = refusal
            {
                let secureEnclave = material.secureEnclave
                return .failure(
                    SecFailure(status, secureEnclave ? Ruling(.k4, ruling.reason) : ruling, laCode: secureEnclave ? la?.rawValue : nil))
            }
        }
        do {
            let signature: P256.Signing.ECDSASignature
            switch kind {
            case .messageX962SHA256: signature = try privateKey.signature(for: data)
            case .digestX962SHA256, .rfc4754:
                // Both take the input as the digest (Apple's RFC 4754 algorithm hashes nothing: issue 52, item 6).
                guard data.count == 32 else { return .failure(failure(.param, .k2, "a P-256 digest is 32 bytes, not \(data.count)")) }
                signature = try privateKey.signature(for: CallerDigest(bytes: data))
            }
            return .success(kind == .rfc4754 ? Array(signature.rawRepresentation) : Array(signature.derRepresentation))
        } catch {
            return .failure(failure(.internalComponent, .k2, "signing failed"))
        }
    }

    /// `SecKeyVerifySignature`: true when the signature verifies; errSecVerifyFailed otherwise.
    public mutating func verify(key: Int, algorithm: String, data: [UInt8], signature: [UInt8]) -> Result<Bool, SecFailure> {
        let result: Result<Bool, SecFailure>
        if let material = keys[key], let kind = KeyAlgorithm(rawValue: algorithm) {
            let parsed =
                kind == .rfc4754
                ? try? P256.Signing.ECDSASignature(rawRepresentation: signature)
                : try? P256.Signing.ECDSASignature(derRepresentation: signature)
            let valid: Bool
            if let parsed {
                switch kind {
                case .digestX962SHA256, .rfc4754:
                    valid = data.count == 32 && material.publicKey.isValidSignature(parsed, for: CallerDigest(bytes: data))
                case .messageX962SHA256: valid = material.publicKey.isValidSignature(parsed, for: data)
                }
            } else {
                valid = false
            }
            result = valid ? .success(true) : .failure(failure(.verifyFailed, .k2, "the signature does not verify"))
        } else {
            result = .failure(failure(.param, .k2, "no such key or an unsupported algorithm"))
        }
        return finishKey("SecKeyVerifySignature", result, rule: .k2, "the signature verifies")
    }

    /// Forgets a `SecKey` no one holds any more (a key item in the keychain keeps its own).
    public mutating func releaseKey(_ key: Int) {
        guard let material = keys[key] else { return }
        if let item = material.item, items[item]?.key == key { return }
        keys[key] = nil
    }
}
