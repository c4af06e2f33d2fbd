import Foundation

/// `SecCertificate`: a DER-encoded X.509 certificate. Certificates are stored
/// and matched by attributes only (trust evaluation is out of scope); this is
/// the object `kSecClassCertificate` code and swift-certificates'
/// `Certificate(_: SecCertificate)` pass around.
public final class SecCertificate: Hashable, Sendable {
    let der: Data

    init(der: Data) { self.der = der }

    public static func == (lhs: SecCertificate, rhs: SecCertificate) -> Bool { lhs.der == rhs.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// `SecCertificateCreateWithData(_:_:)`: a certificate over `data`, or nil
/// when it is not a DER SEQUENCE (its content is not parsed further here).
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    let bytes = data as Data
    guard bytes.count >= 2, bytes.first == 0x30 else { return nil }
    return SecCertificate(der: bytes)
}

/// `SecCertificateCopyData(_:)`: the certificate's DER bytes.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { certificate.der as NSData }
