import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// RFC 5280 path validation at an injected time, shared by the attestation
/// chain (step 1) and the receipt signer's chain. Every certificate of the
/// trust store is an anchor: a store holding Apple's intermediate as well as
/// its root validates the same chains. On top of swift-certificates' policy
/// (which does not police key usage), every CA certificate of the path must
/// allow keyCertSign when it carries a key usage (RFC 5280 §4.2.1.3).
package enum CertificatePath {
    /// Why a chain was refused, for the caller's reason text.
    package enum Failure: Error {
        case noPath
        case caWithoutKeyCertSign(DistinguishedName)
    }

    /// The validated path, leaf first and the anchor last.
    package static func validate(
        leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at time: Date
    ) async -> Result<[Certificate], Failure> {
        // No certificate is valid at a time that is not a time.
        guard RFC3339.representable(time) else { return .failure(.noPath) }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates))
        guard case .validCertificate(let path) = result else { return .failure(.noPath) }
        let certificates = Array(path)
        for ca in certificates.dropFirst() where !allowsCertificateSigning(ca) {
            return .failure(.caWithoutKeyCertSign(ca.subject))
        }
        return .success(certificates)
    }

    /// True unless the certificate has a key usage without keyCertSign.
    static func allowsCertificateSigning(_ certificate: Certificate) -> Bool {
        keyUsage(of: certificate).map { $0?.keyCertSign ?? true } ?? false
    }

    /// True unless the certificate has a key usage without digitalSignature.
    static func allowsDigitalSignature(_ certificate: Certificate) -> Bool {
        keyUsage(of: certificate).map { $0?.digitalSignature ?? true } ?? false
    }

    /// The key usage: `.some(nil)` when absent, nil when the extension does not parse.
    package static func keyUsage(of certificate: Certificate) -> KeyUsage?? {
        do { return .some(try certificate.extensions.keyUsage) } catch { return nil }
    }

    /// True when basic constraints mark the certificate as a CA.
    static func isCertificateAuthority(_ certificate: Certificate) -> Bool {
        do {
            guard let constraints = try certificate.extensions.basicConstraints else { return false }
            if case .isCertificateAuthority = constraints { return true }
            return false
        } catch {
            return true  // An unreadable extension is treated as the stricter reading.
        }
    }

    /// True when the certificate's subject and issuer are the same name (a root).
    static func isSelfIssued(_ certificate: Certificate) -> Bool { certificate.subject == certificate.issuer }

    static func describe(_ failure: Failure, at time: Date) -> String {
        switch failure {
        case .noPath: return "does not chain to a trust anchor at \(RFC3339.format(time))"
        case .caWithoutKeyCertSign(let name): return "CA certificate \(name) has a key usage without keyCertSign"
        }
    }
}
