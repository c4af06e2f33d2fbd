import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import TrustSuiteSupport

extension FuzzTargets {
    /// The JSON input of `acl evaluate` / a keychain-acl vector: any bytes are
    /// decoded as JSON and evaluated; no input may trap, and proving more
    /// (all four kinds of evidence) never turns a success into a failure.
    public static func aclEvaluate(_ bytes: [UInt8]) -> [String] {
        guard let input = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return [] }
        let subject = ReferenceSubject()
        guard let answer = try? subject.evaluateSynchronously(family: .keychainACL, input: input) else { return [] }
        guard answer.verdict == .valid, case .object(var object) = input else { return [] }
        object["evidence"] = .array(["passcode", "biometry", "companion", "applicationPassword"].map(JSONValue.string))
        guard let stronger = try? subject.evaluateSynchronously(family: .keychainACL, input: .object(object)) else {
            return ["input accepted with some evidence is unreadable with more"]
        }
        return stronger.verdict == .valid ? [] : ["more evidence turned a success into \(stronger.error ?? "a failure")"]
    }
}
