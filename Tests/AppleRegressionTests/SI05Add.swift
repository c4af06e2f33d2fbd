import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-05-add.c: a certificate is added by reference with each kind of result asked for,
/// then with an attribute certificates lack, then synchronizable.
@Suite struct SI05Add {
    /// A public CA certificate, 903 bytes of DER: VeriSign International Server CA - Class 3,
    /// issued by VeriSign's Class 3 Public Primary Certification Authority, serial 254B8A853842CCE358F8C5DDAE226EA4.
    static let certificateBase64 = """
        MIIDgzCCAuygAwIBAgIQJUuKhThCzONY+MXdriJupDANBgkqhkiG9w0BAQUFADBfMQswCQYDVQQGEwJVUzEXMBUGA1UEChMOVmVyaVNpZ24sIE
        luYy4xNzA1BgNVBAsTLkNsYXNzIDMgUHVibGljIFByaW1hcnkgQ2VydGlmaWNhdGlvbiBBdXRob3JpdHkwHhcNOTcwNDE3MDAwMDAwWhcNMTEx
        MDI0MjM1OTU5WjCBujEfMB0GA1UEChMWVmVyaVNpZ24gVHJ1c3QgTmV0d29yazEXMBUGA1UECxMOVmVyaVNpZ24sIEluYy4xMzAxBgNVBAsTKl
        ZlcmlTaWduIEludGVybmF0aW9uYWwgU2VydmVyIENBIC0gQ2xhc3MgMzFJMEcGA1UECxNAd3d3LnZlcmlzaWduLmNvbS9DUFMgSW5jb3JwLmJ5
        IFJlZi4gTElBQklMSVRZIExURC4oYyk5NyBWZXJpU2lnbjCBnzANBgkqhkiG9w0BAQEFAAOBjQAwgYkCgYEA2IKA6NYZAn0fhRg5JaJlK+G/1A
        XTvOY2O6rwTGxbtueqPHNFVbLxveqXQu2aNAoV1Klc9UAl3dkHwTKydWzEyruj/lYncUOqY/UwPpMo5frxCTvzt01OOfdcSVq4wR3Tsor+cDCV
        Qsv+K1GLWjw6+SJPkLICp1OcTzTnqwSye28CAwEAAaOB4zCB4DAPBgNVHRMECDAGAQH/AgEAMEQGA1UdIAQ9MDswOQYLYIZIAYb4RQEHAQEwKj
        AoBggrBgEFBQcCARYcaHR0cHM6Ly93d3cudmVyaXNpZ24uY29tL0NQUzA0BgNVHSUELTArBggrBgEFBQcDAQYIKwYBBQUHAwIGCWCGSAGG+EIE
        AQYKYIZIAYb4RQEIATALBgNVHQ8EBAMCAQYwEQYJYIZIAYb4QgEBBAQDAgEGMDEGA1UdHwQqMCgwJqAkoCKGIGh0dHA6Ly9jcmwudmVyaXNpZ2
        4uY29tL3BjYTMuY3JsMA0GCSqGSIb3DQEBBQUAA4GBAAgB7ORolANC8XPxI6I63unx2sZUxCM+hurPajozq+qcBBQHNgYL+Yhv1RPuKSvD5HKN
        RO3RrCAJLeH24RkFOLA9D59/+J4C3IYChmFOJl9en5IeDCSk9dBwE88mw0M9SR2egi5SX7w+xmYpAY5Okiy8RnUDgqxz6dl+C2fvVFIa
        """

    @Test func addCertificate() {
        Simulation.withNew {
            let t = AppleFile("si-05-add.c", plan: 41)
            let certData = Data(base64Encoded: Self.certificateBase64, options: .ignoreUnknownCharacters) ?? Data()
            let made = SecCertificateCreateWithData(nil, certData as CFData)
            t.isnt(made, nil, line: 179, "the certificate is made from its DER")
            guard let myCert = made else {
                for line in Self.linesAfterCreate { t.ok(false, line: line, "no certificate to add") }
                t.finish()
                return
            }
            var dict: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueRef as String: myCert]
            var handle: CFTypeRef?

            // No result pointer, then a duplicate, then a pointer but no return key.
            t.okStatus(SecItemAdd(dict as CFDictionary, nil), line: 186, "add the certificate with no result pointer")
            t.is(SecItemAdd(dict as CFDictionary, nil), errSecDuplicateItem, line: 190, "adding it again is a duplicate")
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 192, "delete the certificate")
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 194, "add it with a result pointer and no return key")
            t.ok(handle == nil, line: 197, "nothing is returned")
            handle = nil
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 199, "delete the certificate")

            // A persistent reference, which finds the certificate's data again.
            dict[kSecReturnPersistentRef as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 203, "add it asking for a persistent reference")
            t.is(CFGetTypeID(handle), CFDataGetTypeID(), line: 205, "a persistent reference is data")
            Self.persistentRefIs(t, handle, certData)
            handle = nil
            dict.removeValue(forKey: kSecReturnPersistentRef as String)
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 210, "delete the certificate")

            // A reference.
            dict[kSecReturnRef as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 214, "add it asking for a reference")
            t.ok((handle as? SecCertificate) == myCert, line: 216, "the reference is the certificate")
            handle = nil
            dict.removeValue(forKey: kSecReturnRef as String)
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 219, "delete the certificate")

            // The data.
            dict[kSecReturnData as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 223, "add it asking for its data")
            t.ok((handle as? Data) == certData, line: 225, "the data is the certificate's DER")
            handle = nil
            dict.removeValue(forKey: kSecReturnData as String)
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 228, "delete the certificate")

            // The attributes alone.
            dict[kSecReturnAttributes as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 232, "add it asking for its attributes")
            t.is(CFGetTypeID(handle), CFDictionaryGetTypeID(), line: 234, "the attributes are a dictionary")
            var attributes = handle as? NSDictionary
            t.ok(attributes.map { $0.object(forKey: kSecValueData) == nil } ?? false, line: 235, "they hold no data")
            t.ok(attributes.map { $0.object(forKey: kSecValueRef) == nil } ?? false, line: 237, "they hold no reference")
            t.ok(
                attributes.map { $0.object(forKey: kSecValuePersistentRef) == nil } ?? false, line: 239,
                "they hold no persistent reference")
            t.is(
                Self.typeID(attributes, kSecAttrCertificateType), CFNumberGetTypeID(), line: 253,
                "the certificate type is a number")
            t.is(
                Self.typeID(attributes, kSecAttrCertificateEncoding), CFNumberGetTypeID(), line: 255,
                "the certificate encoding is a number")
            handle = nil
            dict.removeValue(forKey: kSecReturnAttributes as String)
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 259, "delete the certificate")

            // Attributes, data, reference and persistent reference together.
            dict[kSecReturnData as String] = true
            dict[kSecReturnAttributes as String] = true
            dict[kSecReturnRef as String] = true
            dict[kSecReturnPersistentRef as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 267, "add it asking for everything")
            t.ok(handle != nil, line: 269, "something is returned")
            t.is(CFGetTypeID(handle), CFDictionaryGetTypeID(), line: 270, "it is a dictionary")
            attributes = handle as? NSDictionary
            t.ok((attributes?.object(forKey: kSecValueData) as? Data) == certData, line: 271, "its data is the certificate's DER")
            t.ok(
                (attributes?.object(forKey: kSecValueRef) as? SecCertificate) == myCert, line: 273,
                "its reference is the certificate")
            Self.persistentRefIs(t, attributes?.object(forKey: kSecValuePersistentRef), certData)
            t.ok(
                (attributes?.object(forKey: kSecClass) as? String) == kSecClassCertificate as String, line: 278,
                "its class is certificate")
            t.is(
                Self.typeID(attributes, kSecAttrCertificateType), CFNumberGetTypeID(), line: 281,
                "the certificate type is a number")
            t.is(
                Self.typeID(attributes, kSecAttrCertificateEncoding), CFNumberGetTypeID(), line: 283,
                "the certificate encoding is a number")
            handle = nil
            for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] {
                dict.removeValue(forKey: key as String)
            }
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 290, "delete the certificate")

            // An attribute certificates do not have.
            dict[kSecAttrApplicationTag as String] = Data("funnytag".utf8)
            t.is(SecItemAdd(dict as CFDictionary, &handle), errSecNoSuchAttr, line: 296, "an application tag is no certificate attribute")
            handle = nil
            t.is(SecItemDelete(dict as CFDictionary), errSecNoSuchAttr, line: 299, "nor in a delete")
            dict.removeValue(forKey: kSecAttrApplicationTag as String)

            // Synchronizable.
            dict[kSecAttrSynchronizable as String] = true
            t.okStatus(SecItemAdd(dict as CFDictionary, &handle), line: 306, "add it synchronizable")
            handle = nil
            t.okStatus(SecItemDelete(dict as CFDictionary), line: 309, "delete the synchronizable certificate")
            t.finish()
        }
    }

    /// The lines of every assertion after the certificate is made (Apple's helper's two lines come twice).
    static let linesAfterCreate = [
        186, 190, 192, 194, 197, 199, 203, 205, 163, 164, 210, 214, 216, 219, 223, 225, 228, 232, 234, 235,
        237, 239, 253, 255, 259, 267, 269, 270, 271, 273, 163, 164, 278, 281, 283, 290, 296, 299, 306, 309,
    ]

    /// Apple's helper: the persistent reference finds the item, whose data is `data`.
    static func persistentRefIs(_ t: AppleFile, _ reference: Any?, _ data: Data) {
        guard let reference else {
            t.ok(false, line: 163, "no persistent reference came back to look up")
            t.ok(false, line: 164, "no persistent reference came back to look up")
            return
        }
        let query: [String: Any] = [kSecValuePersistentRef as String: reference, kSecReturnData as String: true]
        var result: CFTypeRef?
        t.okStatus(SecItemCopyMatching(query as CFDictionary, &result), line: 163, "look the item up by its persistent reference")
        t.ok((result as? Data) == data, line: 164, "its data is the certificate's DER")
    }

    /// The type of `key`'s value in `attributes` (0 when there is none).
    static func typeID(_ attributes: NSDictionary?, _ key: CFString) -> CFTypeID {
        CFGetTypeID(attributes?.object(forKey: key).map { $0 as AnyObject })
    }
}
