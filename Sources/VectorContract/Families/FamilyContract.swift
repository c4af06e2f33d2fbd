import Foundation
import TrustSuiteSupport

/// The typed contract of one family (docs/vectors.md, "Inputs per family"
/// and "Shapes of the model families"): the input a vector gives, read
/// strictly by ``StrictJSONDecoder`` (a field the family does not define, a
/// value of the wrong JSON type or an op outside the vocabulary is an error
/// of the vector), the output it expects, and the rules between them that
/// types cannot say. The loader checks every vector against it; the
/// reference subjects read the same types.
public protocol FamilyContract {
    associatedtype Input: Decodable & Sendable
    associatedtype Output: Decodable & Sendable
    static var family: Family { get }
    /// The folder under Fixtures/ that holds the family's vector files.
    static var fixtureFolder: String { get }
    /// The part of the family a vector belongs to in the reports' breakdown
    /// (the decoding mode for cbor); nil for families without parts.
    static func part(of input: JSONValue) -> String?
    /// The capabilities a vector of the family needs, beyond the launch
    /// policy's (``Capabilities``).
    static func capabilities(of vector: Vector) -> Set<String>
    /// The first rule the vector breaks beyond its types, or nil.
    static func problem(_ input: Input, output: Output?, flags: [String]) -> String?
}

extension FamilyContract {
    public static var fixtureFolder: String { family.rawValue }
    public static func part(of input: JSONValue) -> String? { nil }
    public static func capabilities(of vector: Vector) -> Set<String> { [] }
    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? { nil }

    /// The typed input of a vector (defaults already merged).
    public static func input(_ input: JSONValue) throws(StrictJSONDecoder.Failure) -> Input {
        try StrictJSONDecoder.decode(Input.self, from: input)
    }

    /// The first problem of a vector's input and output, or nil.
    static func check(input: JSONValue, output: JSONValue?, flags: [String]) -> String? {
        let typed: Input
        do {
            typed = try Self.input(input)
        } catch {
            return place("input", error)
        }
        var expected: Output? = nil
        if let output {
            do {
                expected = try StrictJSONDecoder.decode(Output.self, from: output)
            } catch {
                return place("output", error)
            }
        }
        return problem(typed, output: expected, flags: flags)
    }

    /// `input.steps[2].op: …`, or `input: missing "op"` at the top.
    static func place(_ root: String, _ error: StrictJSONDecoder.Failure) -> String {
        error.path.isEmpty ? "\(root): \(error.reason)" : "\(root).\(error.path): \(error.reason)"
    }
}

extension Family {
    /// The first problem of a vector of this family, or nil (the loader's check).
    public func problem(input: JSONValue, output: JSONValue?, flags: [String]) -> String? {
        contract.check(input: input, output: output, flags: flags)
    }
}

/// `device` (keychain-acl, keychain-flow, la-right): absent fields take an
/// unlocked phone with a passcode and enrolled biometry.
public struct DeviceShape: Decodable, Sendable, Hashable {
    public enum Biometry: String, StrictVocabulary { case none, notEnrolled, enrolled, lockout }
    public var locked: Bool?
    public var unlockedSinceBoot: Bool?
    public var passcodeSet: Bool?
    public var biometry: Biometry?
    public var companion: Bool?
}

/// What happened to the device (docs/vectors.md, keychain-acl `events`).
public enum DeviceEventName: String, StrictVocabulary {
    case lock, unlock, reboot, passcodeRemoved, passcodeSet, biometryEnrollmentChanged, biometryLockout, restoredToNewDevice
}

/// What the simulated user does when asked (keychain-flow, la-right).
public enum UserName: String, StrictVocabulary { case biometry, passcode, fail, cancel }

/// A keychain operation (docs/models/keychain-acl.md).
public enum KeychainOperationName: String, StrictVocabulary {
    case createItem, useItem, createKey, useKeySign, useKeyDecrypt, useKeyKeyExchange, deleteItem
}

/// A trace step whose `expect` restates the step's entry of `output.steps`.
public protocol TraceStep: Decodable, Sendable {
    /// The answer of one step (`{status, body}`, `{status, prompts}`, `{state, error}`).
    associatedtype StepAnswer: Codable & Hashable & Sendable
    var expect: StepAnswer? { get }
}

enum Trace {
    /// The trace rule of docs/vectors.md: a trace with `expect` has an
    /// `output.steps` of the same length, and each `expect` equals its step's answer.
    static func problem<Step: TraceStep>(_ steps: [Step], output: [Step.StepAnswer]?) -> String? {
        guard steps.contains(where: { $0.expect != nil }) else { return nil }
        guard let output else { return "steps carry \"expect\" but the vector has no output.steps" }
        guard output.count == steps.count else { return "output.steps has \(output.count) entries for \(steps.count) steps" }
        for (index, (step, answer)) in zip(steps, output).enumerated() where step.expect != answer {
            return
                "steps[\(index)].expect \(step.expect.map { text($0) } ?? "(absent)") differs from output.steps[\(index)] \(text(answer))"
        }
        return nil
    }

    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
