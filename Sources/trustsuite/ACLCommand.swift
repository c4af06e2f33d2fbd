import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import KeychainAccessControl
import ReferenceSubjects
import TrustSuiteSupport

struct ACLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acl",
        abstract: "Evaluate and explain keychain access control (protection class + SecAccessControl flags).",
        subcommands: [ACLEvaluateCommand.self, ACLExplainCommand.self]
    )
}

extension KeychainOperation: ExpressibleByArgument {}

/// A protection class by its short code (`ak`) or long name (`whenUnlocked`,
/// `kSecAttrAccessibleWhenUnlocked`).
extension ProtectionClass: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.flatMap { [$0.rawValue, $0.longName] } }
}

/// Options naming an access control, shared by `acl evaluate` and `acl explain`.
struct AccessControlOptions: ParsableArguments {
    @Option(name: .long, help: "Protection class, by code or long name.")
    var protection: ProtectionClass = .ak

    @Option(name: .long, help: "Comma-separated flags, e.g. biometryCurrentSet,or,devicePasscode.")
    var flags: String = ""

    @Flag(name: .long, help: "The item is synchronizable (iCloud Keychain).")
    var synchronizable = false

    var flagNames: [String] { flags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }

    func parsed() throws(CLIError) -> (ProtectionClass, AccessControlFlags) {
        do {
            return (protection, try AccessControlFlags.parse(flagNames))
        } catch {
            throw CLIError(error.reason)
        }
    }
}

struct ACLEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Decide one operation: allowed, needs authentication, or denied with a keychain status.",
        discussion: """
            --device is JSON {"locked", "unlockedSinceBoot", "passcodeSet", "biometry": none|notEnrolled|enrolled|lockout, \
            "companion"} (absent fields: an unlocked phone with a passcode and enrolled biometry), the state at creation. \
            --events lists what happened after creation. --evidence is a JSON list of what the user proves when \
            asked: passcode, biometry, companion, applicationPassword. Exit status: 0 the operation succeeds, \
            1 it fails, 2 bad usage.
            """
    )

    @OptionGroup var access: AccessControlOptions
    @Option(name: .long, help: "The operation to decide.")
    var operation: KeychainOperation
    @Option(name: .long, help: "Device state at creation (JSON object).") var device: String = "{}"
    @Option(name: .long, help: "Comma-separated events after creation (lock, unlock, reboot, passcodeRemoved, …).")
    var events: String = ""
    @Option(name: .long, help: "What the user proves when asked (JSON list).") var evidence: String = "[]"
    @Flag(name: .long, help: "Answer in JSON.") var json = false

    func run() throws {
        let (protection, flags) = try access.parsed()
        let deviceValue = try InputFiles.json(text: device, "--device")
        let evidenceValue = try InputFiles.json(text: evidence, "--evidence")
        var state: DeviceState
        let eventList: [DeviceEvent]
        let proof: Evidence
        let op = operation
        do {
            state = try KeychainJSON.device(deviceValue)
            eventList = try KeychainJSON.events(.array(events.split(separator: ",").map { .string(String($0)) }))
            proof = try Evidence.parse(try KeychainJSON.strings(evidenceValue, "--evidence"))
        } catch let error as ReferenceInputError {
            throw CLIError(error.description)
        } catch let error as KeychainError {
            throw CLIError(error.reason)
        }
        let decision: Decision
        let outcome: Result<Void, KeychainError>
        var rule: OperationRule? = nil
        do {
            let item = try AccessControl.create(protection: protection, flags: flags, synchronizable: access.synchronizable, device: state)
            for event in eventList { state.apply(event) }
            rule = item.rule(for: op)
            decision = item.evaluate(op, device: state, evidence: [])
            outcome = item.perform(op, device: state, evidence: proof)
        } catch {
            decision = .denied(error)
            outcome = .failure(error)
        }
        var object: [String: JSONValue] = ["decision": .string(decision.description)]
        if let rule { object["requires"] = .string(rule.description) }
        switch outcome {
        case .success: object["result"] = .string("allowed")
        case .failure(let error):
            object["result"] = .string("denied")
            object["error"] = .string(error.code.rawValue)
            object["status"] = .int(Int64(error.code.osStatus))
        }
        if json {
            print(JSONValue.object(object).jsonText)
        } else {
            print("before any prompt: \(decision)")
            if let rule { print("\(op.rawValue) requires: \(rule)") }
            switch outcome {
            case .success: print("result: allowed")
            case .failure(let error): print("result: \(error.code.rawValue) (\(error.code.osStatus)) — \(error.explanation)")
            }
        }
        if case .failure = outcome { throw ExitCode(1) }
    }

}

struct ACLExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Print the constraint tree each operation needs, as the keychain stores it."
    )

    @OptionGroup var access: AccessControlOptions

    func run() throws {
        let (protection, flags) = try access.parsed()
        do {
            let item = try AccessControl.create(
                protection: protection, flags: flags, synchronizable: access.synchronizable,
                device: DeviceState())
            print(
                "protection: \(protection.rawValue) (\(protection.longName)), readable \(protection.availability)"
                    + (protection.isThisDeviceOnly ? ", this device only" : ", migrates"))
            print("flags: \(flags.names.isEmpty ? "(none)" : flags.names.joined(separator: ", ")) (0x\(String(flags.rawValue, radix: 16)))")
            print("requirement tree: \(item.requirement?.description ?? "none")")
            for op in KeychainOperation.allCases {
                print("  \(op.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)) \(item.rule(for: op))")
            }
        } catch {
            throw CLIError("access control refused: \(error.code.rawValue) (\(error.code.osStatus)): \(error.reason)", status: 1)
        }
    }
}
