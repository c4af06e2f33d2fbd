#if canImport(SecuritySimulation)
import Foundation
import KeychainAccessControl
import KeychainModel
import SecuritySimulation

/// The driver's hooks on Linux: the simulation control configures the app
/// and device of each vector, queues answers, moves the clock and counts prompts.
public final class SimulationHooks: AppleAPIHooks {
    let simulation: Simulation
    /// The public key and last counter of each key attested in this replay, by key id (``AppAttestHooks``).
    var attested: [String: (publicKey: [UInt8], counter: UInt32)] = [:]

    public init(_ simulation: Simulation = .current) { self.simulation = simulation }

    public func reset(app: [String: Any]?, device: [String: Any]?) -> String? {
        simulation.reset()
        simulation.defaultAnswer = nil
        attested = [:]
        if let app {
            var identity = simulation.app
            if let identifier = app["applicationIdentifier"] as? String { identity.applicationIdentifier = identifier }
            if let groups = app["keychainAccessGroups"] as? [String] { identity.keychainAccessGroups = groups }
            if let groups = app["applicationGroups"] as? [String] { identity.applicationGroups = groups }
            simulation.app = identity
        }
        guard let device else { return nil }
        var settings = simulation.device
        if let name = device["biometry"] as? String {
            guard let kind = BiometryKind.allCases.first(where: { $0.name == name }) else { return "unknown biometry \(name)" }
            settings.biometry = kind
        }
        if let flag = device["enrolled"] as? Bool { settings.enrolled = flag }
        if let flag = device["passcodeSet"] as? Bool { settings.passcodeSet = flag }
        if let flag = device["locked"] as? Bool { settings.locked = flag }
        if let flag = device["lockedOut"] as? Bool { settings.lockedOut = flag }
        for name in (device["companions"] as? [String]) ?? [] {
            guard let companion = SimulatedDevice.Companion(name: name) else { return "unknown companion \(name)" }
            settings.companions.append(companion)
        }
        simulation.device = settings
        return nil
    }

    public func promptCount() -> Int? { simulation.promptCount }

    public func deviceEvent(_ name: String) -> Bool {
        guard let event = DeviceEvent(rawValue: name) else { return false }
        simulation.apply(event)
        return true
    }

    public func queueAnswers(_ names: [String]) -> Bool {
        let answers = names.compactMap(PromptAnswer.init(rawValue:))
        guard answers.count == names.count else { return false }
        for answer in answers { simulation.enqueue(answer) }
        return true
    }

    public func advanceClock(by seconds: Double) { simulation.advance(by: seconds) }
}
#endif
