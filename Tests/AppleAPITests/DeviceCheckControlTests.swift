import AppAttest
import Foundation
import Testing

@testable import SecuritySimulation

/// The App Attest control read from the environment, as the keychain's is:
/// every setting, and a value that does not parse is a problem with the default kept.
@Suite struct DeviceCheckControlTests {
    @Test func everySettingReadsFromTheEnvironment() throws {
        let simulation = Simulation(environment: [
            Simulation.Environment.appAttestAppID: "ABCDE12345.org.example.other",
            Simulation.Environment.appAttestEnvironment: "production",
            Simulation.Environment.deviceState: "/tmp/some-device",
            Simulation.Environment.deviceSeed: "42",
            Simulation.Environment.appAttestSupported: "0",
            Simulation.Environment.deviceCheckSupported: "0",
            Simulation.Environment.appAttestFailures: "attestKey:serverUnavailable, generateToken:featureUnsupported",
        ])
        #expect(simulation.configurationProblems.isEmpty, "\(simulation.configurationProblems)")
        let settings = simulation.services.appAttest
        #expect(settings.appId == "ABCDE12345.org.example.other")
        #expect(settings.environment == .production)
        #expect(settings.stateFolder?.path == "/tmp/some-device")
        #expect(settings.seed == 42)
        #expect(!settings.isSupported && !settings.deviceCheckSupported)
        #expect(simulation.services.pendingFailures == [.attestKey: [.serverUnavailable], .generateToken: [.featureUnsupported]])
    }

    @Test func badValuesAreProblemsAndKeepTheDefaults() {
        let simulation = Simulation(environment: [
            Simulation.Environment.appAttestEnvironment: "staging",
            Simulation.Environment.deviceSeed: "-1",
            Simulation.Environment.appAttestSupported: "maybe",
            Simulation.Environment.appAttestFailures: "attestKey:down",
        ])
        #expect(simulation.configurationProblems.count == 4, "\(simulation.configurationProblems)")
        let settings = simulation.services.appAttest
        #expect(settings.environment == .development && settings.seed == nil && settings.isSupported)
        #expect(simulation.services.pendingFailures.isEmpty)
    }

    @Test func defaultsRunAsOnAPhone() {
        let settings = Simulation(environment: [:]).services.appAttest
        #expect(settings.isSupported && settings.deviceCheckSupported && settings.stateFolder == nil && settings.appId == nil)
    }
}
