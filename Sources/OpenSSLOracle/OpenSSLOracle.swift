import COpenSSL

/// An independent second opinion from OpenSSL (libcrypto 3), used by the
/// differential tests: ECDSA P-256 verification, X.509 chain verification at
/// a given time, and CMS SignedData verification. Nothing here shares code
/// with the reference implementation.
public enum OpenSSLOracle {
    /// DER prefix of a P-256 SubjectPublicKeyInfo (id-ecPublicKey, prime256v1,
    /// BIT STRING of 66 bytes), to which the 65-byte X9.63 point is appended.
    static let p256SPKIPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// ECDSA P-256 with SHA-256 over `message`; `derSignature` is an
    /// Ecdsa-Sig-Value in DER. `publicKey` is an X9.63 point or a P-256 SPKI.
    public static func verifyECDSAP256(publicKey: [UInt8], message: [UInt8], derSignature: [UInt8]) -> Bool {
        let spki = publicKey.first == 0x04 && publicKey.count == 65 ? p256SPKIPrefix + publicKey : publicKey
        guard
            let key = spki.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
                var cursor = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            })
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let result = derSignature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        ERR_clear_error()
        return result == 1
    }

    /// As above with a raw `r ‖ s` signature (IEEE P1363, 64 bytes).
    public static func verifyECDSAP256(publicKey: [UInt8], message: [UInt8], rawSignature: [UInt8]) -> Bool {
        guard rawSignature.count == 64, let der = derFromRaw(rawSignature) else { return false }
        return verifyECDSAP256(publicKey: publicKey, message: message, derSignature: der)
    }

    static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + 32 }, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else { return nil }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Whether `leaf` chains through `intermediates` to one of `anchors` at
    /// `time` (seconds since 1970), all DER certificates.
    public static func verifyChain(leaf: [UInt8], intermediates: [[UInt8]], anchors: [[UInt8]], at time: Int64) -> Bool {
        chainError(leaf: leaf, intermediates: intermediates, anchors: anchors, at: time) == nil
    }

    /// nil when `leaf` chains as `verifyChain` asks, else OpenSSL's reason
    /// (X509_verify_cert_error_string, or why it could not start).
    public static func chainError(leaf: [UInt8], intermediates: [[UInt8]], anchors: [[UInt8]], at time: Int64) -> String? {
        guard let store = makeStore(anchors) else { return "an anchor does not parse" }
        defer { X509_STORE_free(store) }
        var owned: [OpaquePointer] = []
        defer { owned.forEach { X509_free($0) } }
        guard let leafCert = parseCertificate(leaf) else { return "the leaf does not parse" }
        owned.append(leafCert)
        guard let untrusted = OPENSSL_sk_new_null() else { return "out of memory" }
        defer { OPENSSL_sk_free(untrusted) }
        for der in intermediates {
            guard let cert = parseCertificate(der) else { return "an intermediate does not parse" }
            owned.append(cert)
            OPENSSL_sk_push(untrusted, UnsafeRawPointer(cert))
        }
        guard let context = X509_STORE_CTX_new() else { return "out of memory" }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leafCert, untrusted) == 1 else { return "X509_STORE_CTX_init failed" }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(time))
        // Any certificate of the store is an anchor, as in the reference.
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_PARTIAL_CHAIN))
        let ok = X509_verify_cert(context) == 1
        let reason = ok ? nil : String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
        ERR_clear_error()
        return reason
    }

    /// A store trusting exactly `anchors` (it holds its own references).
    static func makeStore(_ anchors: [[UInt8]]) -> OpaquePointer? {
        guard let store = X509_STORE_new() else { return nil }
        for anchor in anchors {
            guard let cert = parseCertificate(anchor) else {
                X509_STORE_free(store)
                return nil
            }
            X509_STORE_add_cert(store, cert)
            X509_free(cert)
        }
        return store
    }

    static func parseCertificate(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let cert = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            // Trailing bytes after the certificate: not a certificate.
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                X509_free(cert)
                return nil
            }
            return cert
        }
    }

    /// Verifies a CMS SignedData (BER or DER) against `anchors` at `time`;
    /// returns the signed content when the signature and chain hold.
    public static func verifyCMS(_ message: [UInt8], anchors: [[UInt8]], at time: Int64) -> [UInt8]? {
        guard
            let cms = message.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
                var cursor = buffer.baseAddress
                return d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
            })
        else { return nil }
        defer { CMS_ContentInfo_free(cms) }
        guard let store = makeStore(anchors) else { return nil }
        defer { X509_STORE_free(store) }
        X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), time_t(time))
        X509_VERIFY_PARAM_set_flags(X509_STORE_get0_param(store), UInt(X509_V_FLAG_PARTIAL_CHAIN))
        guard let out = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(out) }
        let ok = CMS_verify(cms, nil, store, nil, out, UInt32(CMS_BINARY)) == 1
        ERR_clear_error()
        guard ok else { return nil }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { BIO_read(out, $0.baseAddress, Int32($0.count)) }
            if n <= 0 { break }
            content += chunk[0..<Int(n)]
        }
        return content
    }
}
