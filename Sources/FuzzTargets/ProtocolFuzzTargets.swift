import AdapterHost
import AppAttest
import ConformanceKit
import VectorContract
import Foundation
import KeychainAccessControl
import KeychainModel
import LocalAuthorization
import ReferenceSubjects
import TrustSuiteSupport

extension FuzzTargets {
    /// The DER the nonce extension must be: `SEQUENCE { [1] { OCTET STRING (32) } }`.
    static let nonceExtensionPrefix: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20]

    /// An extension value of the credential certificate: as the nonce
    /// extension (``nonceValue(_:)``) and as Apple's informational ones.
    public static func nonceExtension(_ bytes: [UInt8]) -> [String] {
        appleExtensions(bytes) + nonceValue(bytes)
    }

    /// The same bytes as the value of each of Apple's informational
    /// extensions (`trustsuite inspect` renders them from hostile
    /// certificates): a reading is made, the same twice, and its text stays
    /// linear in the input (the render depth bound's purpose).
    static func appleExtensions(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        for oid in [AppleCertificateExtensions.oid85, AppleCertificateExtensions.oid86, AppleCertificateExtensions.oid87] {
            guard let reading = AppleCertificateExtensions.read(oid: oid, value: bytes[...]) else {
                problems.append("no reading for \(oid)")
                continue
            }
            if reading != AppleCertificateExtensions.read(oid: oid, value: bytes[...]) { problems.append("\(oid) read differently twice") }
            let size = reading.lines.reduce(0) { $0 + $1.utf8.count }
            if size > 64 * bytes.count + 64 { problems.append("\(oid): \(size) bytes of text for \(bytes.count) bytes") }
        }
        return problems
    }

    /// The nonce extension's value: DER has one encoding per value, so the
    /// parser accepts exactly the 38-byte encoding of some 32-byte nonce and
    /// returns those 32 bytes; everything else is `nonceExtensionMissing`.
    static func nonceValue(_ bytes: [UInt8]) -> [String] {
        let exact =
            bytes.count == nonceExtensionPrefix.count + 32 && Array(bytes.prefix(nonceExtensionPrefix.count)) == nonceExtensionPrefix
        do {
            let nonce = try NonceExtension.nonce(fromExtensionValue: bytes)
            if !exact { return ["accepted a value that is not the DER of a 32-byte nonce"] }
            return nonce == Array(bytes.suffix(32)) ? [] : ["returned other bytes than the nonce"]
        } catch {
            if error.code != .nonceExtensionMissing { return ["refused with \(error.code)"] }
            return exact ? ["refused the exact DER of a nonce"] : []
        }
    }

    /// The adapter protocol's reading side: the fuzzed bytes are what an
    /// adapter wrote to stdout. Split into lines (at most 48 bytes here) in
    /// chunks whose size the first byte picks, the events equal those of the
    /// whole output fed at once; each line read as the reply to request 3
    /// (process started at request 2) is an answer only when it is a JSON
    /// object with id "3" and a known result, and late only for id "2".
    public static func adapterReply(_ bytes: [UInt8]) -> [String] {
        guard let first = bytes.first else { return [] }
        let chunk = 1 + Int(first % 17)
        let output = bytes.dropFirst()
        let whole = LineChannel(maxLineBytes: 48)
        whole.feed(output)
        whole.feed([])
        let chunked = LineChannel(maxLineBytes: 48)
        var offset = output.startIndex
        while offset < output.endIndex {
            let end = min(offset + chunk, output.endIndex)
            chunked.feed(output[offset..<end])
            offset = end
        }
        chunked.feed([])
        let events = drain(whole)
        var problems: [String] = []
        if events != drain(chunked) { problems.append("events depend on how the output was split into chunks") }
        if events.last != .closed { problems.append("the channel did not end with closed") }
        for case .line(let text) in events {
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            let id = value?["id"]?.stringValue
            switch AdapterReply.read(text, id: 3, firstIdOfProcess: 2) {
            case .answer(let answer):
                if value?.objectValue == nil || id != "3" { problems.append("answered from a line that is not a reply to 3") }
                if value?["result"]?.stringValue != answer.verdict.rawValue { problems.append("verdict not the reply's result") }
                if value?["error"]?.stringValue != answer.error { problems.append("error not the reply's error") }
            case .late(let number):
                if number != 2 || id != "2" { problems.append("late reply \(number) outside 2..<3") }
            case .badVerdict:
                if id != "3" || SubjectAnswer.Verdict(rawValue: value?["result"]?.stringValue ?? "") != nil {
                    problems.append("bad verdict for a line that has a good one or another id")
                }
            case .untrusted:
                if value?.objectValue != nil && (id == "3" || id == "2") { problems.append("distrusted a reply to 3 or 2") }
            }
        }
        return problems
    }

    private static func drain(_ channel: LineChannel) -> [LineChannel.Event] {
        var events: [LineChannel.Event] = []
        while let event = channel.poll() {
            events.append(event)
            if event == .closed { break }
        }
        return events
    }

    /// Whether `op` may answer `status` (docs/traces.md): a SecItem
    /// or SecKey call answers an OSStatus (a LocalAuthentication failure
    /// reaches it mapped to one), never an LAError; an LAContext call answers
    /// success or an LAError — `evaluateAccessControl` also the keychain's
    /// itemNotFound (no item) and interactionNotAllowed (its protection class
    /// locked); a device event answers success.
    static func allowed(_ status: CallStatus, for op: KeychainFlowFamily.Op) -> Bool {
        switch op {
        case .add, .generateKey, .copyMatching, .update, .delete:
            if case .keychain = status { return true }
            return false
        case .sign, .evaluateAccessControl:
            // A Secure Enclave key hands LocalAuthentication's error on (K4);
            // evaluateAccessControl answers its query's keychain failure.
            return true
        case .evaluatePolicy, .canEvaluatePolicy, .invalidateContext:
            if case .localAuthentication = status { return true }
            return status == .success
        case .device:
            return status == .success
        }
    }

    /// A keychain-flow trace (JSON) through the model: every step answers a
    /// status its call may answer, by type, and a prompt count of at least
    /// 0, data only on success; the same trace answers the same twice; and
    /// the answers to the first half of the steps do not depend on the steps
    /// after them.
    public static func keychainFlow(_ bytes: [UInt8]) -> [String] {
        guard let input = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
            let outcomes = try? KeychainFlowSubject.outcomes(input),
            let answers = try? KeychainFlowSubject.trace(input).map(\.answer)
        else { return [] }
        var problems: [String] = []
        for (index, (op, outcome)) in outcomes.enumerated() {
            if !allowed(outcome.status, for: op) { problems.append("step \(index): \(op.rawValue) answered \(outcome.status)") }
            if outcome.prompts < 0 { problems.append("step \(index): prompts \(outcome.prompts)") }
            if outcome.data != nil && outcome.status != .success { problems.append("step \(index): data with status \(outcome.status)") }
        }
        if (try? KeychainFlowSubject.trace(input).map(\.answer)) != answers { problems.append("the same trace answered differently") }
        if let prefix = prefixTrace(input, count: answers.count / 2),
            (try? KeychainFlowSubject.trace(prefix).map(\.answer)) != Array(answers.prefix(answers.count / 2))
        {
            problems.append("the first \(answers.count / 2) steps answer differently without the rest")
        }
        return problems
    }

    /// An la-right trace (JSON) through the model: states and errors are
    /// the model's names, notification counts are at most the step count,
    /// the same trace answers the same twice, and the first half of the
    /// steps answers the same without the rest (notifications no more).
    public static func laRight(_ bytes: [UInt8]) async -> [String] {
        guard let input = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
            let (steps, notifications) = try? await LARightSubject.trace(input)
        else { return [] }
        let answers = steps.map(\.answer)
        var problems: [String] = []
        for (index, answer) in answers.enumerated() {
            if RightState(rawValue: answer["state"]?.stringValue ?? "") == nil {
                problems.append("step \(index): state \(answer["state"]?.jsonText ?? "none")")
            }
            if let error = answer["error"], LAModelError.Code(rawValue: error.stringValue ?? "") == nil {
                problems.append("step \(index): error \(error.jsonText)")
            }
        }
        let counts = ["didBecomeAuthorized", "didBecomeUnauthorized"].map { notifications[$0]?.int64Value ?? -1 }
        if counts.contains(where: { $0 < 0 || $0 > Int64(answers.count) }) { problems.append("notification counts \(counts)") }
        if let again = try? await LARightSubject.trace(input), again.steps.map(\.answer) != answers || again.notifications != notifications
        {
            problems.append("the same trace answered differently")
        }
        let half = answers.count / 2
        if let prefix = prefixTrace(input, count: half), let early = try? await LARightSubject.trace(prefix) {
            if early.steps.map(\.answer) != Array(answers.prefix(half)) {
                problems.append("the first \(half) steps answer differently without the rest")
            }
            let earlyCounts = ["didBecomeAuthorized", "didBecomeUnauthorized"].map { early.notifications[$0]?.int64Value ?? -1 }
            if zip(earlyCounts, counts).contains(where: { $0 > $1 }) { problems.append("fewer steps sent more notifications") }
        }
        return problems
    }

    /// `input` with only its first `count` steps.
    static func prefixTrace(_ input: JSONValue, count: Int) -> JSONValue? {
        guard var object = input.objectValue, let steps = object["steps"]?.arrayValue else { return nil }
        object["steps"] = .array(Array(steps.prefix(count)))
        return .object(object)
    }
}
