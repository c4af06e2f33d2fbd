import AppAttest
import AppAttestProbe
import Foundation
import Testing
import TrustSuiteSupport

/// The config contract of spec/probe.md: every bad field on its own line,
/// placeholders and encodings, JSON pointers, the loopback rule.
@Suite struct ProbeConfigTests {
    static func parse(_ text: String) throws -> ProbeConfig {
        try ProbeConfig.parse(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }

    static func errors(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch let error as ProbeConfigErrors {
            return error.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func theExampleConfigLoads() throws {
        let config = try Self.parse(
            ProbeFixture.configText(port: 8080, policy: #"{"allowedValidationCategories": [3], "missingLaunchData": "allow"}"#))
        #expect(config.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(config.timeoutSeconds == 10)
        #expect(config.attest.accepted == [200, 201, 204])
        #expect(config.launchPolicy?.allowedValidationCategories == [3])
        #expect(config.launchPolicy?.missingLaunchData == .allow)
        #expect(config.isLoopback)
    }

    /// One line per bad field, each naming it; nothing else reported.
    @Test func everyBadFieldHasItsOwnLine() {
        let text = ProbeFixture.configText(port: 8080)
            .replacingOccurrences(of: "\"environment\": \"development\"", with: "\"environment\": \"staging\"")
            .replacingOccurrences(of: "\"encoding\": \"base64\"", with: "\"encoding\": \"base32\"")
            .replacingOccurrences(of: "\"accepted\": [200]", with: "\"accepted\": [200, 404]")
            .replacingOccurrences(of: "\"clientDataHash\": \"sha256\"", with: "\"clientDataHash\": \"sha256\", \"timeoutSecs\": 3")
        let lines = Self.errors(text)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.contains { $0.contains("environment: must be one of development, production, not \"staging\"") })
        #expect(lines.contains { $0.contains("challenge.encoding: must be one of base64, base64url, hex, text") })
        #expect(lines.contains { $0.contains("assert.refused: 404 is also in assert.accepted") })
        #expect(lines.contains { $0.contains("timeoutSecs: unknown field") })
        #expect(lines.allSatisfy { !$0.contains("\n") })
    }

    @Test(arguments: [
        (#""baseURL": "ftp://127.0.0.1""#, "baseURL: must be an http or https URL"),
        (#""timeoutSeconds": 0"#, "timeoutSeconds: must be a number of seconds"),
        (#""timeoutSeconds": "10""#, "timeoutSeconds: must be a number of seconds"),
        (#""launchPolicy": {"minimumBundleVersion": "1.x"}"#, "launchPolicy.minimumBundleVersion: must be dot-separated"),
        (#""launchPolicy": {"allowedValidationCategories": [-1]}"#, "launchPolicy.allowedValidationCategories: must be"),
        (#""headers": {"X Bad": "1"}"#, "headers.X Bad: is not a valid header name"),
    ])
    func aBadValueIsNamed(_ replacement: String, _ message: String) {
        let key = String(replacement.prefix { $0 != ":" })
        var text = ProbeFixture.configText(port: 8080)
        if let range = text.range(of: "\(key): [^\n]*?(,\n|\n)", options: .regularExpression) {
            text.replaceSubrange(range, with: "")
        }
        text = text.replacingOccurrences(of: "\"appId\"", with: "\(replacement),\n  \"appId\"")
        let lines = Self.errors(text)
        #expect(lines.count == 1 && lines[0].contains(message), "\(lines)")
    }

    @Test func missingFieldsAreEachNamed() {
        let lines = Self.errors("{}")
        for field in ["appId", "environment", "baseURL", "challenge", "attest", "assert", "clientData", "clientDataHash"] {
            #expect(lines.contains { $0.hasSuffix(": \(field): missing") }, "\(field): \(lines)")
        }
    }

    @Test func placeholdersAndEncodings() {
        let challenge = ProbeChallenge(written: "q83v", bytes: [0xAB, 0xCD, 0xEF])
        let values = ProbeValues(keyId: [0xFB, 0xFF], clientData: Array("{}".utf8), challenge: challenge)
        #expect(ProbeTemplate("{keyId}|{keyId:base64}|{keyId:base64url}|{keyId:hex}").fill(values) == "+/8=|+/8=|-_8|fbff")
        #expect(ProbeTemplate("{challenge}/{challenge:hex}").fill(values) == "q83v/abcdef")
        #expect(ProbeTemplate("{clientData:text}").fill(values) == "{}")
        // Any other text in braces is literal; JSON text around a placeholder is kept.
        #expect(
            ProbeTemplate(#"{"challenge":"{challenge}","x":"{other}","y":"{keyId:base32}"}"#).fill(values)
                == #"{"challenge":"q83v","x":"{other}","y":"{keyId:base32}"}"#)
        #expect(ProbeEncoding.decode("-_8", .base64url) == [0xFB, 0xFF])
        #expect(ProbeEncoding.decode("-_8=", .base64url) == [0xFB, 0xFF])
        #expect(ProbeEncoding.decode("+/8=", .base64url) == nil)
        #expect(ProbeEncoding.decode("abcdef", .text) == Array("abcdef".utf8))
    }

    @Test func jsonPointers() throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a/b": {"~k": ["x", "y"]}, "c": "z"}"#.utf8))
        #expect(JSONPointer("/a~1b/~0k/1")?.resolve(document)?.stringValue == "y")
        #expect(JSONPointer("/c")?.resolve(document)?.stringValue == "z")
        #expect(JSONPointer("/a~1b/~0k/01")?.resolve(document) == nil)
        #expect(JSONPointer("c") == nil)
        #expect(JSONPointer("/~2") == nil)
    }

    @Test(arguments: [
        ("http://127.0.0.1:1", true), ("http://127.8.9.10", true), ("http://localhost:80", true),
        ("http://[::1]:8080", true), ("http://10.0.0.1", false), ("http://127.0.0.1.example.com", false),
        ("http://example.com", false), ("http://127.0.0.256", false),
    ])
    func loopback(_ url: String, _ loopback: Bool) throws {
        let config = try Self.parse(ProbeFixture.configText(port: 1).replacingOccurrences(of: "http://127.0.0.1:1", with: url))
        #expect(config.isLoopback == loopback)
    }
}
