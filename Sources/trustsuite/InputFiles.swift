import SwiftASN1
import AppAttest
import ConformanceKit
import VectorContract
import Foundation
import X509
import TrustSuiteSupport

/// Input handling shared by the verify and inspect commands: the forms a
/// server really has (binary files; standard base64 or base64url, padded or
/// not, with white space or a byte-order mark; PEM or DER anchors). Every bad
/// input throws a ``CLIError`` naming the option: one `trustsuite: …` line,
/// exit 2, printed by `TrustSuiteCommand.main` (the one refusal channel).
enum InputFiles {
    /// Largest input file read: real objects are a few KiB; this stops a
    /// mistaken multi-megabyte file (or a device) from being read whole.
    static let maxFileBytes = 4 * 1024 * 1024

    /// A regular file's bytes, at most `limit` (default ``maxFileBytes``),
    /// read without blocking on a FIFO or device (``RegularFile``).
    static func read(_ path: String, _ option: String, allowEmpty: Bool = false, limit: Int = maxFileBytes) throws(CLIError) -> [UInt8] {
        let data: [UInt8]
        do {
            data = try RegularFile.read(path, limit: limit)
        } catch {
            switch error.kind {
            case .tooLarge: throw CLIError("\(option) \(path) is larger than \(limit / (1024 * 1024)) MiB")
            default: throw CLIError("\(option): \(error.description)")
            }
        }
        guard allowEmpty || !data.isEmpty else { throw CLIError("\(option) \(path) is empty") }
        return data
    }

    /// An object file (attestation, assertion, receipt): binary, or base64 /
    /// base64url text in any of the accepted forms.
    static func object(_ path: String, _ option: String = "FILE") throws(CLIError) -> [UInt8] {
        BinaryText.binaryOrBase64(try read(path, option))
    }

    /// An option's binary value given as base64 or base64url text.
    static func base64(_ text: String, _ option: String) throws(CLIError) -> [UInt8] {
        guard let bytes = BinaryText.base64Lenient(Array(text.utf8)) else { throw CLIError("\(option) is not base64 or base64url") }
        return bytes
    }

    /// A public key given inline or as a file: X9.63 or SPKI DER in base64 /
    /// base64url, a PEM `PUBLIC KEY` block, or (a file) the binary DER or point.
    static func publicKey(_ value: String, _ option: String) throws(CLIError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        if !value.contains("-----"), FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
            let content = try read(value, option)
            if content.firstRange(of: Array("-----BEGIN PUBLIC KEY-----".utf8)) != nil {
                return try pemPublicKey(String(decoding: content, as: UTF8.self), option)
            }
            return BinaryText.binaryOrBase64(content)
        }
        return value.contains("-----BEGIN PUBLIC KEY-----") ? try pemPublicKey(value, option) : try base64(value, option)
    }

    static func pemPublicKey(_ text: String, _ option: String) throws(CLIError) -> [UInt8] {
        let body = text.split(whereSeparator: \.isNewline).filter { !$0.contains("-----") }.joined()
        return try base64(body, option)
    }

    static func time(_ text: String) throws(CLIError) -> Date {
        guard let date = RFC3339.parse(text) else { throw CLIError("--time must be RFC 3339, e.g. 2024-04-18T16:14:54Z") }
        return date
    }

    /// Anchor files: PEM with one or more certificates, or one DER certificate.
    static func anchors(_ paths: [String], option: String = "--anchor") throws(CLIError) -> [Certificate]? {
        guard !paths.isEmpty else { return nil }
        var anchors: [Certificate] = []
        for path in paths {
            let bytes = try read(path, option)
            let ders: [[UInt8]]
            if bytes.firstRange(of: Array("-----BEGIN".utf8)) != nil {
                guard let blocks = PEM.certificates(in: String(decoding: bytes, as: UTF8.self)) else {
                    throw CLIError("\(option) \(path) holds a malformed PEM certificate block")
                }
                ders = blocks
            } else {
                ders = [bytes]
            }
            for der in ders {
                guard let certificate = try? Certificate(derEncoded: der) else {
                    throw CLIError("\(option) \(path): not a PEM or DER certificate")
                }
                anchors.append(certificate)
            }
        }
        return anchors
    }

    /// A JSON file (a trace), read through ``read(_:_:allowEmpty:limit:)``.
    static func json(_ path: String, _ option: String) throws(CLIError) -> JSONValue {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(try read(path, option))) else {
            throw CLIError("\(path) is not a readable JSON file")
        }
        return value
    }

    /// An option's value given as JSON text.
    static func json(text: String, _ option: String) throws(CLIError) -> JSONValue {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw CLIError("\(option) is not valid JSON")
        }
        return value
    }

    /// Standard input, at most `limit` bytes.
    static func standardInput(limit: Int) throws(CLIError) -> [UInt8] {
        do {
            return try RegularFile.readStandardInput(limit: limit)
        } catch {
            throw CLIError(error.kind == .tooLarge ? "standard input is larger than \(limit / (1024 * 1024)) MiB" : error.description)
        }
    }
}
