import SwiftASN1
import AppAttest
import ConformanceKit
import Foundation
import X509

/// Input handling shared by the verify and inspect commands: the forms a
/// server really has (binary files; standard base64 or base64url, padded or
/// not, with white space or a byte-order mark; PEM or DER anchors). Every bad
/// input ends in one `trustsuite: …` line naming the option, exit 2.
enum InputFiles {
    /// Largest input file read: real objects are a few KiB; this stops a
    /// mistaken multi-megabyte file (or a device) from being read whole.
    static let maxFileBytes = 4 * 1024 * 1024

    /// A regular file's bytes, at most `limit` (default ``maxFileBytes``),
    /// read without blocking on a FIFO or device (``RegularFile``).
    static func read(_ path: String, _ option: String, allowEmpty: Bool = false, limit: Int = maxFileBytes) -> [UInt8] {
        let data: [UInt8]
        do {
            data = try RegularFile.read(path, limit: limit)
        } catch {
            switch error.kind {
            case .tooLarge: Console.fail("\(option) \(path) is larger than \(limit / (1024 * 1024)) MiB")
            default: Console.fail("\(option): \(error.description)")
            }
        }
        guard allowEmpty || !data.isEmpty else { Console.fail("\(option) \(path) is empty") }
        return data
    }

    /// An object file (attestation, assertion, receipt): binary, or base64 /
    /// base64url text in any of the accepted forms.
    static func object(_ path: String, _ option: String = "FILE") -> [UInt8] {
        BinaryText.binaryOrBase64(read(path, option))
    }

    /// An option's binary value given as base64 or base64url text.
    static func base64(_ text: String, _ option: String) -> [UInt8] {
        guard let bytes = BinaryText.base64Lenient(Array(text.utf8)) else { Console.fail("\(option) is not base64 or base64url") }
        return bytes
    }

    /// A public key given inline or as a file: X9.63 or SPKI DER in base64 /
    /// base64url, a PEM `PUBLIC KEY` block, or (a file) the binary DER or point.
    static func publicKey(_ value: String, _ option: String) -> [UInt8] {
        var isDirectory: ObjCBool = false
        if !value.contains("-----"), FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
            let content = read(value, option)
            if content.firstRange(of: Array("-----BEGIN PUBLIC KEY-----".utf8)) != nil {
                return pemPublicKey(String(decoding: content, as: UTF8.self), option)
            }
            return BinaryText.binaryOrBase64(content)
        }
        return value.contains("-----BEGIN PUBLIC KEY-----") ? pemPublicKey(value, option) : base64(value, option)
    }

    static func pemPublicKey(_ text: String, _ option: String) -> [UInt8] {
        let body = text.split(whereSeparator: \.isNewline).filter { !$0.contains("-----") }.joined()
        return base64(body, option)
    }

    static func time(_ text: String) -> Date {
        guard let date = RFC3339.parse(text) else { Console.fail("--time must be RFC 3339, e.g. 2024-04-18T16:14:54Z") }
        return date
    }

    /// Anchor files: PEM with one or more certificates, or one DER certificate.
    static func anchors(_ paths: [String], option: String = "--anchor") -> [Certificate]? {
        guard !paths.isEmpty else { return nil }
        return paths.flatMap { path -> [Certificate] in
            let bytes = read(path, option)
            let ders: [[UInt8]]
            if bytes.firstRange(of: Array("-----BEGIN".utf8)) != nil {
                guard let blocks = PEM.certificates(in: String(decoding: bytes, as: UTF8.self)) else {
                    Console.fail("\(option) \(path) holds a malformed PEM certificate block")
                }
                ders = blocks
            } else {
                ders = [bytes]
            }
            return ders.map { der in
                guard let certificate = try? Certificate(derEncoded: der) else { Console.fail("\(option) \(path): not a PEM or DER certificate") }
                return certificate
            }
        }
    }
}
