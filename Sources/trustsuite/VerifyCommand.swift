import StrictCBOR
import AppAttest
import ArgumentParser
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import X509
import TrustSuiteSupport

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify an App Attest attestation, assertion or receipt with the reference verifier.",
        discussion: "Exit status: 0 valid, 1 invalid, 2 bad usage.",
        subcommands: [VerifyAttestationCommand.self, VerifyAssertionCommand.self, VerifyReceiptCommand.self]
    )
}

/// Prints a verdict in text or JSON and exits 0 (valid) or 1 (invalid).
struct Verdict {
    var fields: [(String, JSONValue)]

    static func report(_ result: Result<[(String, JSONValue)], AppAttestError>, json: Bool, what: String) throws -> Never {
        switch result {
        case .success(let fields):
            if json {
                var object: [String: JSONValue] = ["verdict": .string("valid")]
                for (key, value) in fields { object[key] = value }
                print(JSONValue.object(object).jsonText)
            } else {
                print("valid: \(what) verified")
                for (key, value) in fields { print("  \(key): \(value.stringValue ?? value.jsonText)") }
            }
            throw ExitCode(0)
        case .failure(let error):
            if json {
                print(
                    JSONValue.object([
                        "verdict": .string("invalid"), "error": .string(error.code.rawValue),
                        "reason": .string(error.reason),
                    ]).jsonText)
            } else {
                print("invalid: \(error.code.rawValue) — \(error.reason)")
            }
            throw ExitCode(1)
        }
    }
}

struct VerifyAttestationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation",
        abstract: "Verify an attestation object (the 9 steps of docs/models/app-attest.md).",
        discussion: """
            FILE holds the object in binary, base64 or base64url. Give --client-data-hash, or --challenge \
            (the raw bytes the app passed to attestKey, as in Apple's samples) with --hash-challenge \
            when the app passed SHA-256 of it. The embedded receipt is verified too and reported as \
            receiptStatus (verified, or the receipt's error code); --require-receipt makes a bad receipt \
            fail the attestation with that code. --allow-category, --minimum-bundle-version, \
            --allow-code-directory-hash and --missing-launch-data set a launch policy, applied after the nine steps.
            """
    )

    @Argument(help: "The attestation object (binary, base64 or base64url).") var file: String
    @Option(name: .customLong("key-id"), help: "The key id the app sent (base64 or base64url).") var keyId: String
    @Option(name: .customLong("client-data-hash"), help: "The clientDataHash passed to attestKey (base64 or base64url).")
    var clientDataHash: String?
    @Option(name: .long, help: "The challenge (base64 or base64url), instead of --client-data-hash.") var challenge: String?
    @Flag(name: .customLong("hash-challenge"), help: "clientDataHash is SHA-256 of --challenge.") var hashChallenge = false
    @Option(name: .customLong("app-id"), help: "TEAMID.bundle.id") var appId: String
    @Option(name: .long, help: "development or production.") var environment: AppAttestEnvironment
    @Option(name: .long, help: "Validation time, RFC 3339.") var time: String
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trust anchor file, PEM (one or many certificates) or DER (default: Apple App Attestation Root CA; repeatable).",
            valueName: "file"))
    var anchor: [String] = []
    @Option(
        name: .customLong("receipt-anchor"),
        help: ArgumentHelp(
            "Anchor of the embedded receipt's chain, PEM or DER (default: Apple Root CA - G3; repeatable).", valueName: "file"))
    var receiptAnchor: [String] = []
    @Flag(
        name: .customLong("require-receipt"), help: "Fail the attestation with the receipt's error code when its receipt does not verify.")
    var requireReceipt = false
    @OptionGroup var skew: ClockSkewOption
    @OptionGroup var launch: LaunchPolicyOptions
    @Flag(name: .long, help: "Answer in JSON.") var json = false

    func validate() throws {
        if (clientDataHash == nil) == (challenge == nil) { throw ValidationError("give exactly one of --client-data-hash and --challenge") }
        if hashChallenge && challenge == nil { throw ValidationError("--hash-challenge goes with --challenge") }
    }

    func run() async throws {
        let hash: [UInt8]
        if let challenge {
            let raw = try InputFiles.base64(challenge, "--challenge")
            hash = hashChallenge ? Array(SHA256.hash(data: raw)) : raw
        } else {
            hash = try InputFiles.base64(clientDataHash ?? "", "--client-data-hash")
        }
        let object = try InputFiles.object(file)
        let verifier = try AttestationVerifier(
            appId: appId, environment: environment, trustAnchors: try InputFiles.anchors(anchor),
            receiptAnchors: try InputFiles.anchors(receiptAnchor, option: "--receipt-anchor"),
            requireReceipt: requireReceipt, receiptClockSkew: skew.seconds,
            launchPolicy: launch.policy)
        let keyIdBytes = try InputFiles.base64(keyId, "--key-id")
        let at = try InputFiles.time(time)
        do {
            let verified = try await verifier.verify(attestationObject: object, keyId: keyIdBytes, clientDataHash: hash, at: at)
            var fields: [(String, JSONValue)] = [
                ("publicKey", .string(BinaryText.base64(verified.publicKey))), ("counter", .int(Int64(verified.counter))),
                ("receiptStatus", .string(verified.receiptStatus.description)), ("receipt", .string(BinaryText.base64(verified.receipt))),
            ]
            if let extensions = verified.extensions { fields.append(("extensions", .string(extensions.diagnostic))) }
            fields += LaunchPolicyOptions.fields(verified.launchData)
            try Verdict.report(.success(fields), json: json, what: "attestation")
        } catch let error as AppAttestError {
            try Verdict.report(.failure(error), json: json, what: "attestation")
        }
    }
}

extension AppAttestEnvironment: ExpressibleByArgument {}

struct VerifyAssertionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assertion",
        abstract: "Verify an assertion against the stored public key and counter.",
        discussion: """
            --allow-category, --minimum-bundle-version, --allow-code-directory-hash and --missing-launch-data set a \
            launch policy, applied after the assertion steps.
            """
    )

    @Argument(help: "The assertion (binary, base64 or base64url).") var file: String
    @Option(
        name: .customLong("public-key"),
        help: "The stored public key: X9.63 or SPKI DER in base64 or base64url, or a file holding it (binary, base64 or PEM PUBLIC KEY).")
    var publicKey: String
    @Option(name: .customLong("client-data"), help: ArgumentHelp("File holding the client data the app signed.", valueName: "file"))
    var clientData: String
    @Option(name: .customLong("app-id"), help: "TEAMID.bundle.id") var appId: String
    @Option(name: .customLong("previous-counter"), help: "The stored counter.") var previousCounter: UInt32
    @OptionGroup var launch: LaunchPolicyOptions
    @Flag(name: .long, help: "Answer in JSON.") var json = false

    func run() throws {
        guard let key = ES256.publicKey(try InputFiles.publicKey(publicKey, "--public-key")) else {
            throw CLIError("--public-key is not a P-256 key (X9.63 or SPKI DER)")
        }
        let data = try InputFiles.read(clientData, "--client-data", allowEmpty: true)
        let assertion = try InputFiles.object(file)
        do {
            let verified = try AssertionVerifier(appId: appId, launchPolicy: launch.policy).verify(
                assertion: assertion, clientData: data, publicKey: key, previousCounter: previousCounter)
            var fields: [(String, JSONValue)] = [("counter", .int(Int64(verified.counter)))]
            if let extensions = verified.extensions { fields.append(("extensions", .string(extensions.diagnostic))) }
            fields += LaunchPolicyOptions.fields(verified.launchData)
            try Verdict.report(.success(fields), json: json, what: "assertion")
        } catch let error as AppAttestError {
            try Verdict.report(.failure(error), json: json, what: "assertion")
        }
    }
}

struct VerifyReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Verify a receipt: signature, chain to Apple Root CA - G3, and the given expectations."
    )

    @Argument(help: "The receipt (binary, base64 or base64url).") var file: String
    @Option(name: .long, help: "Validation time, RFC 3339.") var time: String
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trust anchor file, PEM (one or many certificates) or DER (default: Apple Root CA - G3; repeatable).", valueName: "file"))
    var anchor: [String] = []
    @Option(name: .customLong("app-id"), help: "Expected App ID (field 2).") var appId: String?
    @Option(
        name: .customLong("public-key"),
        help: "Expected public key of field 3's certificate (base64, base64url, or a file: binary, base64 or PEM).") var publicKey: String?
    @Option(name: .customLong("max-age"), help: "Largest accepted age of the receipt in seconds.") var maxAge: UInt32?
    @OptionGroup var skew: ClockSkewOption
    @Flag(name: .long, help: "Answer in JSON.") var json = false

    func run() async throws {
        let verifier = try ReceiptVerifier(trustAnchors: try InputFiles.anchors(anchor), clockSkew: skew.seconds)
        let receiptBytes = try InputFiles.object(file)
        let at = try InputFiles.time(time)
        let expectedKey = try publicKey.map { text throws(CLIError) in try InputFiles.publicKey(text, "--public-key") }
        do {
            let receipt = try await verifier.verify(
                receipt: receiptBytes, at: at, appId: appId,
                publicKey: expectedKey, maxAge: maxAge.map(TimeInterval.init)
            ).receipt
            try Verdict.report(
                .success([
                    ("type", receipt.kind.map { .string($0.rawValue) } ?? .null), ("appId", receipt.appId.map(JSONValue.string) ?? .null),
                    ("creationTime", receipt.creationTimeText.map(JSONValue.string) ?? .null),
                    ("riskMetric", receipt.riskMetric.map { .int(Int64($0)) } ?? .null),
                    ("environment", receipt.environment.map(JSONValue.string) ?? .null),
                    ("earliestRefreshTime", receipt.text(.earliestRefresh).map(JSONValue.string) ?? .null),
                ]), json: json, what: "receipt")
        } catch let error as AppAttestError {
            try Verdict.report(.failure(error), json: json, what: "receipt")
        }
    }
}

/// `--clock-skew S`: how far a receipt's creation time may lie after the
/// validation time (docs/models/app-attest.md, round 3).
struct ClockSkewOption: ParsableArguments {
    @Option(
        name: .customLong("clock-skew"),
        help: ArgumentHelp(
            "Seconds a receipt's creation time may lie after --time (0…86400; default 60).", valueName: "S"))
    var clockSkew: UInt32 = UInt32(ReceiptVerifier.defaultClockSkew)

    func validate() throws {
        guard clockSkew <= 86_400 else { throw ValidationError("--clock-skew must be at most 86400 seconds") }
    }

    var seconds: TimeInterval { TimeInterval(clockSkew) }
}
