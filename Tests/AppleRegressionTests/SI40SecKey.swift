import Foundation
import Security
import SecuritySimulation
import Testing

// Port of Apple's OSX/sec/Security/Regressions/secitem/si-40-seckey.c
// (apple-oss-distributions/Security db15acbe). RSA key pairs come from
// SecKeyGeneratePair. The test then uses them through the legacy raw calls
// (SecKeyRawSign, SecKeyRawVerify, SecKeyEncrypt, SecKeyDecrypt), through the
// iOS 10 calls (signatures, external representations, attributes, supported
// algorithms, public key copies), and last through SPKI round trips of RSA and
// EC public keys.
//
// plan_tests is the same on every platform (the file has no platform branch):
// 431 = 3 × 68 (pairs of 768, 1024 and 2056 bits) + 12 (a permanent pair found
// again by label) + 69 (supported algorithms) + 13 (external representations)
// + 20 (attributes) + 5 (public key copies) + 84 (signatures) + 6 × 4 (SPKI).
//
// Apple's SPI, mapped to public calls:
// - SecKeyGetSize(key, kSecKeyKeySizeInBits) and (key, kSecKeySignatureSize)
//   become SecKeyGetBlockSize(key) × 8 and SecKeyGetBlockSize(key). For the
//   whole-byte RSA sizes tested here the values are the same.
// - SecKeyDigestAndSign / SecKeyDigestAndVerify with an RSA signature OID become
//   the calls they wrap (SecKeyCreateSignature / SecKeyVerifySignature with the
//   OID's PKCS#1 v1.5 message algorithm, OSX/sec/Security/SecKey.m:1072-1108).
//   The status is derived the way their legacy wrapper derives it (SecKey.m:680-715):
//   the error's code, with errSecVerifyFailed reported as errSSLCrypto.
// - SecKeyCopySubjectPublicKeyInfo / SecKeyCreateFromSubjectPublicKeyInfoData
//   have no public counterpart, so those assertions are skipped.
// - CFDataCreateWithHash over "test" becomes the published SHA digests of "test"
//   (SI40Vectors).
//
// Our Security module has no SecKeyGeneratePair and no RSA calls yet. Every
// assertion needs a generated pair, so the port runs only with
// APPLE_REGRESSION_FULL_API; without it, each assertion is recorded as a known
// failure ("API"). The checks that need only calls the module already has take
// the pair as parameters and compile in both configurations.

@Suite struct SI40SecKey {
    @Test func rsaKeyPairs() {
        Simulation.withNew {
            let t = AppleFile("si-40-seckey.c", plan: 431)
            #if APPLE_REGRESSION_FULL_API
            SI40Port(t: t).run()
            #else
            SI40Fallback.record(t)
            #endif
            t.finish()
        }
    }
}

/// Apple's line of each assertion, in the order Apple's file makes them.
private enum SI40Lines {
    /// testkeygen after the pair: key checks, PKCS#1 signing, the MD2, MD5 and SHA-1 digests, the raw opening.
    static let keyGenAfterPair = [198, 199, 200, 201, 206, 210, 213, 215, 230, 233, 239, 242, 248, 251, 257, 258, 260]
    /// testkeygen's SHA-2 digest signatures: each runs when the key has more bits than the
    /// digest's bits plus 232, the least PKCS#1 v1.5 overhead of a SHA-2 DigestInfo (29 bytes).
    static let keyGenSHA2: [(digestBits: Int, sign: Int, verify: Int)] = [
        (224, 271, 274), (256, 282, 285), (384, 293, 296), (512, 304, 307),
    ]
    static let pkcs1Overhead = 232
    static let encryptDecrypt = [147, 155, 158, 162, 172, 173]
    static let digestAndSign = [68, 74, 79, 83]
    static let keyGenItems = [327, 328, 339, 340]

    /// Every assertion of testkeygen(bits): 68 for each size Apple uses.
    static func keyGen(bits: Int) -> [Int] {
        var lines = [190] + keyGenAfterPair
        for digest in keyGenSHA2 where bits > digest.digestBits + pkcs1Overhead {
            lines += [digest.sign, digest.verify]
        }
        for _ in 0..<3 { lines += encryptDecrypt }
        for _ in 0..<5 { lines += digestAndSign }
        return lines + keyGenItems
    }

    static let keyGen2 = [381, 389, 390, 391, 392, 400, 402, 409, 411, 415, 425, 426]

    static let supportedSign = [478, 480, 483, 485]
    static let supportedCrypt = [503, 505, 507, 509]
    static var supported: [Int] {
        [454, 460, 461] + Array(repeating: supportedSign, count: 11).flatMap { $0 } + [488, 490]
            + Array(repeating: supportedCrypt, count: 5).flatMap { $0 }
    }

    static let createWithData = [532, 550, 559, 562, 567, 577, 587, 596, 599, 604, 614, 627, 639]
    static let copyAttributes = [
        665, 675, 682, 685, 688, 691, 694, 697, 700, 703, 714, 721, 725, 728, 731, 734, 737, 740, 743, 752,
    ]
    static let copyPublicKey = [777, 786, 787, 793, 794]

    /// testsignverify's digest lines, one entry per algorithm in Apple's order (raw, five digest, five message).
    static let signVerifyDigest: [Int?] = [nil, 854, 859, 864, 869, 874, nil, nil, nil, nil, nil]
    static let signVerifyPerAlgorithm = [885, 890, 896, 900, 904, 912, 920]
    static var signVerifyAlgorithms: [Int] {
        signVerifyDigest.flatMap { digest in (digest.map { [$0] } ?? []) + signVerifyPerAlgorithm }
    }
    static var signVerify: [Int] { [818, 838] + signVerifyAlgorithms }

    static let spkiPair = 954
    static let spkiRest = [960, 963, 965]
    static let spkiSkip =
        "SecKeyCopySubjectPublicKeyInfo and SecKeyCreateFromSubjectPublicKeyInfoData are SPI (keychain/headers/SecKeyPriv.h:240-244); "
        + "no public call makes or reads an SPKI"
    /// Apple's testspki calls: key type and size.
    static let spkiKeys: [(type: String, bits: Int)] = [
        ("RSA", 1024), ("RSA", 2048), ("RSA", 4096), ("EC", 256), ("EC", 384), ("EC", 521),
    ]
}

/// Test vectors.
private enum SI40Vectors {
    /// testkeygen's 64-byte digest: 0x80, 0x01 … 0x1f, then 0x00 … 0x1f. The high bit of its first byte is set on purpose.
    static let digest: [UInt8] = [0x80] + (0x01...0x1f).map { UInt8($0) } + (0x00...0x1f).map { UInt8($0) }
    /// The SHA-1, SHA-224, SHA-256, SHA-384 and SHA-512 digests of the UTF-8 bytes of "test".
    static let sha1OfTest = "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
    static let sha224OfTest = "90a3ed9e32b2aaf4c61c410eb925426119e1a9dc53d4286ade99a809"
    static let sha256OfTest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    static let sha384OfTest = "768412320f7b0aa5812fce428dc4706b3cae50e02a64caa16a782249bfe8efc4b7ef1ccb126255d196047dfedf17a0a9"
    static let sha512OfTest =
        "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db2"
        + "7ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff"

    /// The bytes of a hex string; nil when it is not hex.
    static func data(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return Data(bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

// MARK: Checks that need only calls our module has (they run once a pair exists)

/// Apple's `eq_cf(a, b)` (CFEqualSafe): equal, or both absent.
private func sameValue(_ first: Any?, _ second: Any?) -> Bool {
    switch (first, second) {
    case (nil, nil): return true
    case (let first as NSObject, let second as NSObject): return first.isEqual(second)
    default: return false
    }
}

/// testsupportedalgos after the pair and its sizes: what each key of an RSA pair supports.
private func checkSupportedAlgorithms(
    _ t: AppleFile, publicKey: SecKey, privateKey: SecKey, sign: [SecKeyAlgorithm], ecdsa: SecKeyAlgorithm,
    crypt: [SecKeyAlgorithm]
) {
    for algorithm in sign {
        let name = "\(algorithm.rawValue)"
        t.ok(SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm), line: 478, "private key signs with \(name)")
        t.ok(SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm), line: 480, "public key verifies with \(name)")
        t.ok(SecKeyIsAlgorithmSupported(privateKey, .verify, algorithm), line: 483, "private key also verifies with \(name)")
        t.ok(!SecKeyIsAlgorithmSupported(publicKey, .sign, algorithm), line: 485, "public key does not sign with \(name)")
    }
    t.ok(!SecKeyIsAlgorithmSupported(privateKey, .sign, ecdsa), line: 488, "RSA private key does not sign with ECDSA")
    t.ok(!SecKeyIsAlgorithmSupported(privateKey, .verify, ecdsa), line: 490, "RSA private key does not verify with ECDSA")
    for algorithm in crypt {
        let name = "\(algorithm.rawValue)"
        t.ok(SecKeyIsAlgorithmSupported(privateKey, .decrypt, algorithm), line: 503, "private key decrypts with \(name)")
        t.ok(SecKeyIsAlgorithmSupported(publicKey, .encrypt, algorithm), line: 505, "public key encrypts with \(name)")
        t.ok(!SecKeyIsAlgorithmSupported(privateKey, .encrypt, algorithm), line: 507, "private key does not encrypt with \(name)")
        t.ok(SecKeyIsAlgorithmSupported(publicKey, .decrypt, algorithm), line: 509, "public key also decrypts with \(name)")
    }
}

/// testcreatewithdata after the pair: each key's external representation makes the key again, and
/// only under its own key class and unaltered.
private func checkCreateWithData(_ t: AppleFile, publicKey: SecKey, privateKey: SecKey, bits: Int) {
    func create(_ data: Data, _ keyClass: CFString) -> SecKey? {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: NSNumber(value: Int32(bits)),
            kSecAttrIsPermanent as String: false, kSecAttrKeyClass as String: keyClass,
        ]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(data as CFData, attributes as CFDictionary, &error)
        _ = error?.takeRetainedValue()
        return key
    }
    func export(_ key: SecKey) -> CFData? {
        var error: Unmanaged<CFError>?
        let data = SecKeyCopyExternalRepresentation(key, &error)
        _ = error?.takeRetainedValue()
        return data
    }

    let privateData = export(privateKey)
    t.ok(privateData != nil && CFGetTypeID(privateData) == CFDataGetTypeID(), line: 550, "private key exports")
    if let privateData = privateData as Data? {
        let key = create(privateData, kSecAttrKeyClassPrivate)
        t.ok(key != nil, line: 559, "private key made from its export")
        t.ok(key == privateKey, line: 562, "and equal to the original")
        t.ok(create(privateData, kSecAttrKeyClassPublic) == nil, line: 567, "private export refused as a public key")
        t.ok(create(firstByteFlipped(privateData), kSecAttrKeyClassPrivate) == nil, line: 577, "altered private export refused")
    } else {
        notRun(t, [559, 562, 567, 577], "no private key export")
    }

    let publicData = export(publicKey)
    t.ok(publicData != nil && CFGetTypeID(publicData) == CFDataGetTypeID(), line: 587, "public key exports")
    if let publicData = publicData as Data? {
        let key = create(publicData, kSecAttrKeyClassPublic)
        t.ok(key != nil, line: 596, "public key made from its export")
        t.ok(key == publicKey, line: 599, "and equal to the original")
        t.ok(create(publicData, kSecAttrKeyClassPrivate) == nil, line: 604, "public export refused as a private key")
        t.ok(create(firstByteFlipped(publicData), kSecAttrKeyClassPublic) == nil, line: 614, "altered public export refused")
    } else {
        notRun(t, [596, 599, 604, 614], "no public key export")
    }

    if let publicData = publicData as Data? {
        t.ok(create(publicData, kSecAttrKeyClassPrivate) == nil, line: 627, "no private key from a public export")
    } else {
        notRun(t, [627], "no public key export")
    }
    if let privateData = privateData as Data? {
        t.ok(create(privateData, kSecAttrKeyClassPublic) == nil, line: 639, "no public key from a private export")
    } else {
        notRun(t, [639], "no private key export")
    }
}

/// testcopyattributes after the pair: the usage flags, class, type and size of each key, and one application label for both.
private func checkCopyAttributes(_ t: AppleFile, publicKey: SecKey, privateKey: SecKey, bits: Int) {
    let privateAttributes = SecKeyCopyAttributes(privateKey)
    t.ok(
        privateAttributes != nil && CFGetTypeID(privateAttributes) == CFDictionaryGetTypeID(), line: 675,
        "private key has attributes")
    var privateLabel: Any?
    if let attributes = privateAttributes {
        t.ok(isBoolean(attribute(attributes, kSecAttrCanEncrypt), false), line: 682, "private key: can encrypt is false")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanDecrypt), true), line: 685, "private key: can decrypt is true")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanDerive), false), line: 688, "private key: can derive is false")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanSign), true), line: 691, "private key: can sign is true")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanVerify), false), line: 694, "private key: can verify is false")
        t.ok(isString(attribute(attributes, kSecAttrKeyClass), kSecAttrKeyClassPrivate), line: 697, "private key: class private")
        t.ok(isString(attribute(attributes, kSecAttrKeyType), kSecAttrKeyTypeRSA), line: 700, "private key: type RSA")
        t.ok(isNumber(attribute(attributes, kSecAttrKeySizeInBits), bits), line: 703, "private key: size in bits")
        privateLabel = attribute(attributes, kSecAttrApplicationLabel)
    } else {
        notRun(t, [682, 685, 688, 691, 694, 697, 700, 703], "no private key attributes")
    }

    let publicAttributes = SecKeyCopyAttributes(publicKey)
    t.ok(
        publicAttributes != nil && CFGetTypeID(publicAttributes) == CFDictionaryGetTypeID(), line: 714,
        "public key has attributes")
    var publicLabel: Any?
    if let attributes = publicAttributes {
        t.ok(isBoolean(attribute(attributes, kSecAttrCanEncrypt), true), line: 721, "public key: can encrypt is true")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanDecrypt), true), line: 725, "public key: can decrypt is true (raw RSA)")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanDerive), false), line: 728, "public key: can derive is false")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanSign), false), line: 731, "public key: can sign is false")
        t.ok(isBoolean(attribute(attributes, kSecAttrCanVerify), true), line: 734, "public key: can verify is true")
        t.ok(isString(attribute(attributes, kSecAttrKeyClass), kSecAttrKeyClassPublic), line: 737, "public key: class public")
        t.ok(isString(attribute(attributes, kSecAttrKeyType), kSecAttrKeyTypeRSA), line: 740, "public key: type RSA")
        t.ok(isNumber(attribute(attributes, kSecAttrKeySizeInBits), bits), line: 743, "public key: size in bits")
        publicLabel = attribute(attributes, kSecAttrApplicationLabel)
    } else {
        notRun(t, [721, 725, 728, 731, 734, 737, 740, 743], "no public key attributes")
    }

    t.ok(sameValue(privateLabel, publicLabel), line: 752, "both keys carry the same application label")
}

/// testcopypublickey after the pair: either key gives the public key.
private func checkCopyPublicKey(_ t: AppleFile, publicKey: SecKey, privateKey: SecKey) {
    let fromPrivate = SecKeyCopyPublicKey(privateKey)
    t.ok(fromPrivate != nil, line: 786, "public key from the private key")
    t.ok(fromPrivate == publicKey, line: 787, "equal to the pair's public key")
    let fromPublic = SecKeyCopyPublicKey(publicKey)
    t.ok(fromPublic != nil, line: 793, "public key from the public key")
    t.ok(fromPublic == publicKey, line: 794, "equal to the pair's public key")
}

/// One algorithm of testsignverify: what is signed is "test", or for a digest algorithm its digest (Apple's line, hex).
private struct SignatureCase {
    let algorithm: SecKeyAlgorithm
    let digest: (line: Int, hex: String)?
}

/// testsignverify after the pair: only the private key signs and only the public key verifies, with the algorithm used;
/// an altered signature or altered data does not verify.
private func checkSignVerify(
    _ t: AppleFile, publicKey: SecKey, privateKey: SecKey, cases: [SignatureCase], raw: SecKeyAlgorithm,
    digestSHA1: SecKeyAlgorithm
) {
    func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> Data? {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error)
        _ = error?.takeRetainedValue()
        return signature as Data?
    }
    func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) -> Bool {
        var error: Unmanaged<CFError>?
        let verified = SecKeyVerifySignature(key, algorithm, data as CFData, signature as CFData, &error)
        _ = error?.takeRetainedValue()
        return verified
    }

    let testData = "test".data(using: .utf8)
    t.ok(testData != nil, line: 838, "the UTF-8 bytes of \"test\"")
    guard let testData else { return notRun(t, SI40Lines.signVerifyAlgorithms, "no test data") }

    for entry in cases {
        let algorithm = entry.algorithm
        let name = "\(algorithm.rawValue)"
        let incompatible = algorithm == raw ? digestSHA1 : raw
        var signed: Data? = testData
        if let digest = entry.digest {
            signed = SI40Vectors.data(hex: digest.hex)
            t.ok(signed != nil, line: digest.line, "the digest of \"test\" for \(name)")
        }
        guard let data = signed else {
            notRun(t, SI40Lines.signVerifyPerAlgorithm, "no data to sign for \(name)")
            continue
        }
        t.ok(sign(publicKey, algorithm, data) == nil, line: 885, "public key does not sign with \(name)")
        let signature = sign(privateKey, algorithm, data)
        t.ok(signature != nil, line: 890, "private key signs with \(name)")
        guard let signature else {
            notRun(t, [896, 900, 904, 912, 920], "no signature for \(name)")
            continue
        }
        t.ok(!verify(privateKey, algorithm, data, signature), line: 896, "private key does not verify \(name)")
        t.ok(!verify(publicKey, incompatible, data, signature), line: 900, "\(name) signature fails under another algorithm")
        t.ok(verify(publicKey, algorithm, data, signature), line: 904, "public key verifies \(name)")
        t.ok(!verify(publicKey, algorithm, data, firstByteFlipped(signature)), line: 912, "altered \(name) signature fails")
        t.ok(!verify(publicKey, algorithm, firstByteFlipped(data), signature), line: 920, "\(name) signature over altered data fails")
    }
}

// MARK: The port (needs SecKeyGeneratePair and the RSA calls)

#if APPLE_REGRESSION_FULL_API
/// The three legacy paddings test_encrypt_decrypt uses.
private enum SI40Padding {
    case none, pkcs1, oaep

    var value: SecPadding {
        switch self {
        case .none: []
        case .pkcs1: .PKCS1
        case .oaep: .OAEP
        }
    }

    /// The longest plaintext for a key of `keyBytes` bytes (OAEP with SHA-1: two hashes and two bytes).
    func maxLength(keyBytes: Int) -> Int {
        switch self {
        case .none: keyBytes
        case .pkcs1: keyBytes - 11
        case .oaep: keyBytes - 2 - 2 * 20
        }
    }
}

private struct SI40Port {
    let t: AppleFile

    func run() {
        for bits in [768, 1024, 2056] { keyGen(bits) }
        keyGen2(768)
        supportedAlgorithms(768)
        withPair(768, line: 532, rest: SI40Lines.createWithData.dropFirst()) {
            checkCreateWithData(t, publicKey: $0, privateKey: $1, bits: 768)
        }
        withPair(768, line: 665, rest: SI40Lines.copyAttributes.dropFirst()) {
            checkCopyAttributes(t, publicKey: $0, privateKey: $1, bits: 768)
        }
        withPair(768, line: 777, rest: SI40Lines.copyPublicKey.dropFirst()) {
            checkCopyPublicKey(t, publicKey: $0, privateKey: $1)
        }
        withPair(768, line: 818, rest: SI40Lines.signVerify.dropFirst()) {
            checkSignVerify(
                t, publicKey: $0, privateKey: $1, cases: signatureCases, raw: .rsaSignatureRaw,
                digestSHA1: .rsaSignatureDigestPKCS1v15SHA1)
        }
        for (type, bits) in SI40Lines.spkiKeys {
            spki(type == "RSA" ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeEC, bits)
        }
    }

    /// SecKeyGeneratePair: its status and the pair.
    func generatePair(_ parameters: [String: Any]) -> (status: OSStatus, publicKey: SecKey?, privateKey: SecKey?) {
        var publicKey: SecKey?
        var privateKey: SecKey?
        let status = SecKeyGeneratePair(parameters as CFDictionary, &publicKey, &privateKey)
        return (status, publicKey, privateKey)
    }

    func rsaParameters(_ bits: Int) -> [String: Any] {
        [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: NSNumber(value: Int32(bits))]
    }

    /// An ephemeral RSA pair (kSecAttrIsPermanent false) for a check that needs one; `rest` fails when there is none.
    func withPair(_ bits: Int, line: Int, rest: some Sequence<Int>, _ check: (SecKey, SecKey) -> Void) {
        var parameters = rsaParameters(bits)
        parameters[kSecAttrIsPermanent as String] = false
        let pair = generatePair(parameters)
        t.okStatus(pair.status, line: line, "generate an ephemeral \(bits)-bit RSA key pair")
        guard let publicKey = pair.publicKey, let privateKey = pair.privateKey else {
            return notRun(t, rest, "no key pair")
        }
        check(publicKey, privateKey)
    }

    // MARK: testkeygen

    func keyGen(_ bits: Int) {
        let keyBytes = (bits + 7) / 8
        let lines = SI40Lines.keyGen(bits: bits)
        let pair = generatePair(rsaParameters(bits))
        t.okStatus(pair.status, line: 190, "generate a \(bits)-bit RSA key pair")
        guard pair.status == errSecSuccess else { return notRun(t, lines.dropFirst(), "no key pair") }
        t.ok(pair.publicKey != nil, line: 198, "a public key is returned")
        t.ok(pair.privateKey != nil, line: 199, "a private key is returned")
        guard let publicKey = pair.publicKey, let privateKey = pair.privateKey else {
            return notRun(t, lines.dropFirst(3), "no key pair")
        }
        t.is(SecKeyGetBlockSize(publicKey) * 8, bits, line: 200, "public key size in bits")
        t.is(SecKeyGetBlockSize(privateKey) * 8, bits, line: 201, "private key size in bits")

        var something = [UInt8](repeating: 0, count: keyBytes)
        let somethingLength = keyBytes - 11
        t.okStatus(SecRandomCopyBytes(kSecRandomDefault, something.count, &something), line: 206, "random bytes to sign")
        var sig = [UInt8](repeating: 0, count: keyBytes)
        var sigLength = sig.count
        t.is(
            SecKeyRawSign(privateKey, .PKCS1, something, somethingLength + 1, &sig, &sigLength), errSecParam, line: 210,
            "PKCS#1 signing of one byte more than fits is refused")
        t.okStatus(
            SecKeyRawSign(privateKey, .PKCS1, something, somethingLength, &sig, &sigLength), line: 213,
            "PKCS#1 signature of the longest data that fits")
        t.okStatus(
            SecKeyRawVerify(publicKey, .PKCS1, something, somethingLength, sig, sigLength), line: 215, "that signature verifies")

        let digest = SI40Vectors.digest
        t.ok(SecKeyRawSign(privateKey, .PKCS1MD2, digest, 16, &sig, &sigLength) != errSecSuccess, line: 230, "an MD2 digest is not signed")
        t.ok(SecKeyRawVerify(publicKey, .PKCS1MD2, digest, 16, sig, sigLength) != errSecSuccess, line: 233, "nor verified")
        sigLength = sig.count
        t.ok(SecKeyRawSign(privateKey, .PKCS1MD5, digest, 16, &sig, &sigLength) != errSecSuccess, line: 239, "an MD5 digest is not signed")
        t.ok(SecKeyRawVerify(publicKey, .PKCS1MD5, digest, 16, sig, sigLength) != errSecSuccess, line: 242, "nor verified")
        sigLength = sig.count
        t.okStatus(SecKeyRawSign(privateKey, .PKCS1SHA1, digest, 20, &sig, &sigLength), line: 248, "a SHA-1 digest is signed")
        t.okStatus(SecKeyRawVerify(publicKey, .PKCS1SHA1, digest, 20, sig, sigLength), line: 251, "and verifies")

        var opened = [UInt8](repeating: 0, count: keyBytes)
        var openedLength = opened.count
        t.okStatus(
            SecKeyDecrypt(publicKey, [], sig, sigLength, &opened, &openedLength), line: 257,
            "the public key's raw operation opens the SHA-1 signature")
        t.is(openedLength, keyBytes - 1, line: 258, "the leading zero byte is dropped")
        let end = min(openedLength, opened.count)
        let firstZero = opened[0..<end].firstIndex(of: 0) ?? end
        t.is(openedLength - firstZero, 16 + 20, line: 260, "after the padding: a zero byte, SHA-1's DigestInfo header and the digest")

        let sha2: [(padding: SecPadding, name: String)] = [
            (.PKCS1SHA224, "SHA-224"), (.PKCS1SHA256, "SHA-256"), (.PKCS1SHA384, "SHA-384"), (.PKCS1SHA512, "SHA-512"),
        ]
        for (entry, gate) in zip(sha2, SI40Lines.keyGenSHA2) where bits > gate.digestBits + SI40Lines.pkcs1Overhead {
            let length = gate.digestBits / 8
            sigLength = sig.count
            t.okStatus(
                SecKeyRawSign(privateKey, entry.padding, digest, length, &sig, &sigLength), line: gate.sign,
                "a \(entry.name) digest is signed")
            t.okStatus(SecKeyRawVerify(publicKey, entry.padding, digest, length, sig, sigLength), line: gate.verify, "and verifies")
        }

        for padding in [SI40Padding.none, .pkcs1, .oaep] {
            encryptDecrypt(publicKey, privateKey, padding, keyBytes: keyBytes)
        }
        let messageAlgorithms: [SecKeyAlgorithm] = [
            .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA256,
            .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA512,
        ]
        for algorithm in messageAlgorithms { digestAndSign(privateKey, publicKey, algorithm) }

        let privateItem: [String: Any] = [kSecValueRef as String: privateKey]
        t.okStatus(SecItemAdd(privateItem as CFDictionary, nil), line: 327, "add the private key by reference")
        t.okStatus(SecItemDelete(privateItem as CFDictionary), line: 328, "delete it by reference")
        let publicItem: [String: Any] = [kSecValueRef as String: publicKey]
        t.okStatus(SecItemAdd(publicItem as CFDictionary, nil), line: 339, "add the public key by reference")
        t.okStatus(SecItemDelete(publicItem as CFDictionary), line: 340, "delete it by reference")
    }

    /// test_encrypt_decrypt: a random secret as long as the padding allows encrypts (one two bytes longer does not)
    /// and decrypts to itself; with no padding the secret starts with a zero byte, which decryption drops.
    func encryptDecrypt(_ publicKey: SecKey, _ privateKey: SecKey, _ padding: SI40Padding, keyBytes: Int) {
        let maxLength = padding.maxLength(keyBytes: keyBytes)
        var secret = [UInt8](repeating: 0, count: maxLength + 2)
        var secretStart = 0
        var secretLength = maxLength
        var encrypted = [UInt8](repeating: 0, count: keyBytes)
        var encryptedLength = encrypted.count
        var decrypted = [UInt8](repeating: 0xff, count: keyBytes)
        var decryptedLength = decrypted.count
        t.okStatus(SecRandomCopyBytes(kSecRandomDefault, secret.count, &secret), line: 147, "random secret")
        if padding == .none {
            secret[0] = 0
            secret[1] = 128
        }
        t.is(
            SecKeyEncrypt(publicKey, padding.value, secret, secret.count, &encrypted, &encryptedLength), errSecParam, line: 155,
            "a secret too long for \(padding) is refused")
        t.okStatus(
            SecKeyEncrypt(publicKey, padding.value, secret, secretLength, &encrypted, &encryptedLength), line: 158,
            "the longest secret \(padding) allows is encrypted")
        t.okStatus(
            SecKeyDecrypt(privateKey, padding.value, encrypted, encryptedLength, &decrypted, &decryptedLength), line: 162,
            "and decrypted")
        if padding == .none {
            secretStart = 1
            secretLength -= 1
        }
        t.ok(decryptedLength == secretLength, line: 172, "decrypted length (\(padding))")
        t.ok(
            decrypted.prefix(secretLength).elementsEqual(secret[secretStart..<(secretStart + secretLength)]), line: 173,
            "decrypted bytes are the secret (\(padding))")
    }

    /// testdigestandsignalg through the public calls Apple's SPI wraps: sign 256 zero bytes, verify, then the
    /// signature with its last bit flipped and the data with its first byte inverted fail with errSSLCrypto.
    func digestAndSign(_ privateKey: SecKey, _ publicKey: SecKey, _ algorithm: SecKeyAlgorithm) {
        var data = [UInt8](repeating: 0, count: 256)
        var signature = [UInt8](repeating: 0, count: SecKeyGetBlockSize(privateKey))
        let status = legacySign(privateKey, algorithm, data, into: &signature)
        t.okStatus(status, line: 68, "digest and sign with \(algorithm.rawValue)")
        guard status == errSecSuccess, let last = signature.indices.last else {
            return notRun(t, [74, 79, 83], "no signature")
        }
        t.okStatus(legacyVerify(publicKey, algorithm, data, signature), line: 74, "digest and verify")
        signature[last] ^= 1
        t.is(legacyVerify(publicKey, algorithm, data, signature), errSSLCrypto, line: 79, "an altered signature fails")
        signature[last] ^= 1
        data[0] ^= 0xff
        t.is(legacyVerify(publicKey, algorithm, data, signature), errSSLCrypto, line: 83, "altered data fails")
    }

    /// SecKeyDigestAndSign's status: the signature fills `signature` (capacity in, length out), or the legacy status.
    func legacySign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: [UInt8], into signature: inout [UInt8]) -> OSStatus {
        var error: Unmanaged<CFError>?
        guard let made = SecKeyCreateSignature(key, algorithm, Data(data) as CFData, &error) as Data? else {
            return legacyStatus(error)
        }
        guard made.count <= signature.count else { return errSecParam }
        signature = [UInt8](made)
        return errSecSuccess
    }

    /// SecKeyDigestAndVerify's status.
    func legacyVerify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: [UInt8], _ signature: [UInt8]) -> OSStatus {
        var error: Unmanaged<CFError>?
        if SecKeyVerifySignature(key, algorithm, Data(data) as CFData, Data(signature) as CFData, &error) { return errSecSuccess }
        return legacyStatus(error)
    }

    /// The status the legacy calls report for a failed call: the error's code, errSecVerifyFailed as
    /// errSSLCrypto; success when no error was given.
    func legacyStatus(_ error: Unmanaged<CFError>?) -> OSStatus {
        guard let error = error?.takeRetainedValue() else { return errSecSuccess }
        let status = OSStatus(truncatingIfNeeded: CFErrorGetCode(error))
        return status == errSecVerifyFailed ? errSSLCrypto : status
    }

    // MARK: testkeygen2

    /// A permanent pair with a label on each key, found again by label (the private key also by can-sign), used, deleted.
    func keyGen2(_ bits: Int) {
        let keyBytes = (bits + 7) / 8
        let name = UUID().uuidString
        var publicQuery: [String: Any] = [kSecAttrLabel as String: name + "-Public-40"]
        var privateQuery: [String: Any] = [kSecAttrLabel as String: name + "-Private-40"]
        var parameters = rsaParameters(bits)
        parameters[kSecAttrIsPermanent as String] = true
        parameters[kSecPublicKeyAttrs as String] = publicQuery
        parameters[kSecPrivateKeyAttrs as String] = privateQuery
        let pair = generatePair(parameters)
        t.okStatus(pair.status, line: 381, "generate a permanent \(bits)-bit RSA key pair")
        guard pair.status == errSecSuccess else { return notRun(t, SI40Lines.keyGen2.dropFirst(), "no key pair") }
        t.ok(pair.publicKey != nil, line: 389, "a public key is returned")
        t.ok(pair.privateKey != nil, line: 390, "a private key is returned")
        t.is(pair.publicKey.map { SecKeyGetBlockSize($0) * 8 } ?? 0, bits, line: 391, "public key size in bits")
        t.is(pair.privateKey.map { SecKeyGetBlockSize($0) * 8 } ?? 0, bits, line: 392, "private key size in bits")

        publicQuery[kSecClass as String] = kSecClassKey
        publicQuery[kSecReturnRef as String] = true
        privateQuery[kSecClass as String] = kSecClassKey
        privateQuery[kSecReturnRef as String] = true
        privateQuery[kSecAttrCanSign as String] = true
        var publicResult: CFTypeRef?
        var privateResult: CFTypeRef?
        t.okStatus(SecItemCopyMatching(publicQuery as CFDictionary, &publicResult), line: 400, "public key found by its label")
        t.okStatus(
            SecItemCopyMatching(privateQuery as CFDictionary, &privateResult), line: 402,
            "private key found by its label and can-sign")

        var something = [UInt8](repeating: 0, count: 50)
        something.replaceSubrange(0..<5, with: [0x80, 0xbe, 0xef, 0xba, 0xd0])
        var sig = [UInt8](repeating: 0, count: keyBytes)
        var sigLength = keyBytes
        if let found = privateResult as? SecKey {
            t.okStatus(
                SecKeyRawSign(found, .PKCS1, something, something.count, &sig, &sigLength), line: 409, "the found private key signs")
        } else {
            t.ok(false, line: 409, "not run: no private key found")
        }
        if let found = publicResult as? SecKey {
            t.okStatus(
                SecKeyRawVerify(found, .PKCS1, something, something.count, sig, sigLength), line: 411,
                "the found public key verifies")
            sigLength = keyBytes
            t.is(
                SecKeyEncrypt(found, .PKCS1SHA1, something, something.count, &sig, &sigLength), errSecParam, line: 415,
                "a signature padding is refused for encryption")
        } else {
            notRun(t, [411, 415], "no public key found")
        }
        t.okStatus(SecItemDelete(publicQuery as CFDictionary), line: 425, "delete the public key")
        t.okStatus(SecItemDelete(privateQuery as CFDictionary), line: 426, "delete the private key")
    }

    // MARK: testsupportedalgos

    func supportedAlgorithms(_ bits: Int) {
        let pair = generatePair(rsaParameters(bits))
        t.okStatus(pair.status, line: 454, "generate a \(bits)-bit RSA key pair")
        guard let publicKey = pair.publicKey, let privateKey = pair.privateKey else {
            return notRun(t, SI40Lines.supported.dropFirst(), "no key pair")
        }
        t.is(SecKeyGetBlockSize(publicKey) * 8, bits, line: 460, "public key size in bits")
        t.is(SecKeyGetBlockSize(privateKey) * 8, bits, line: 461, "private key size in bits")
        checkSupportedAlgorithms(
            t, publicKey: publicKey, privateKey: privateKey,
            sign: [
                .rsaSignatureRaw,
                .rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA1,
                .rsaSignatureDigestPKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA224,
                .rsaSignatureDigestPKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA256,
                .rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA384,
                .rsaSignatureDigestPKCS1v15SHA512, .rsaSignatureMessagePKCS1v15SHA512,
            ],
            ecdsa: .ecdsaSignatureDigestX962,
            crypt: [.rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224, .rsaEncryptionOAEPSHA256])
    }

    // MARK: testsignverify

    var signatureCases: [SignatureCase] {
        [
            SignatureCase(algorithm: .rsaSignatureRaw, digest: nil),
            SignatureCase(algorithm: .rsaSignatureDigestPKCS1v15SHA1, digest: (854, SI40Vectors.sha1OfTest)),
            SignatureCase(algorithm: .rsaSignatureDigestPKCS1v15SHA224, digest: (859, SI40Vectors.sha224OfTest)),
            SignatureCase(algorithm: .rsaSignatureDigestPKCS1v15SHA256, digest: (864, SI40Vectors.sha256OfTest)),
            SignatureCase(algorithm: .rsaSignatureDigestPKCS1v15SHA384, digest: (869, SI40Vectors.sha384OfTest)),
            SignatureCase(algorithm: .rsaSignatureDigestPKCS1v15SHA512, digest: (874, SI40Vectors.sha512OfTest)),
            SignatureCase(algorithm: .rsaSignatureMessagePKCS1v15SHA1, digest: nil),
            SignatureCase(algorithm: .rsaSignatureMessagePKCS1v15SHA224, digest: nil),
            SignatureCase(algorithm: .rsaSignatureMessagePKCS1v15SHA256, digest: nil),
            SignatureCase(algorithm: .rsaSignatureMessagePKCS1v15SHA384, digest: nil),
            SignatureCase(algorithm: .rsaSignatureMessagePKCS1v15SHA512, digest: nil),
        ]
    }

    // MARK: testspki

    func spki(_ keyType: CFString, _ bits: Int) {
        let parameters: [String: Any] = [kSecAttrKeyType as String: keyType, kSecAttrKeySizeInBits as String: NSNumber(value: Int32(bits))]
        let pair = generatePair(parameters)
        t.okStatus(pair.status, line: SI40Lines.spkiPair, "generate a \(bits)-bit \(keyType == kSecAttrKeyTypeRSA ? "RSA" : "EC") key pair")
        t.skip(SI40Lines.spkiRest.count, line: SI40Lines.spkiRest[0], SI40Lines.spkiSkip)
    }
}
#else
/// Without SecKeyGeneratePair and the RSA calls no assertion of Apple's file can run: each is a known failure.
private enum SI40Fallback {
    static func record(_ t: AppleFile) {
        func absent(_ lines: some Sequence<Int>, _ what: String) {
            for line in lines { t.ok(false, line: line, "\(what): API absent", known: "API") }
        }
        for bits in [768, 1024, 2056] {
            absent(SI40Lines.keyGen(bits: bits), "testkeygen(\(bits)): SecKeyGeneratePair, SecKeyRawSign/RawVerify/Encrypt/Decrypt")
        }
        absent(SI40Lines.keyGen2, "testkeygen2: SecKeyGeneratePair, SecKeyRawSign/RawVerify/Encrypt, SecKeyGetBlockSize")
        absent(SI40Lines.supported, "testsupportedalgos: SecKeyGeneratePair, the RSA SecKeyAlgorithm constants")
        absent(SI40Lines.createWithData, "testcreatewithdata: SecKeyGeneratePair (RSA)")
        absent(SI40Lines.copyAttributes, "testcopyattributes: SecKeyGeneratePair (RSA)")
        absent(SI40Lines.copyPublicKey, "testcopypublickey: SecKeyGeneratePair (RSA)")
        absent(SI40Lines.signVerify, "testsignverify: SecKeyGeneratePair, the RSA SecKeyAlgorithm constants")
        for key in SI40Lines.spkiKeys {
            absent([SI40Lines.spkiPair], "testspki(\(key.type), \(key.bits)): SecKeyGeneratePair")
            t.skip(SI40Lines.spkiRest.count, line: SI40Lines.spkiRest[0], SI40Lines.spkiSkip)
        }
    }
}
#endif
