import AppAttest
import Foundation

extension Simulation.Environment {
    /// The App Attest App ID, when it is not the app's (`TRUSTSUITE_SIM_APP_ID`). `TEAMID.bundle.id`.
    public static let appAttestAppID = "TRUSTSUITE_SIM_APPATTEST_APP_ID"
    /// `development` (default) or `production`: the App Attest environment.
    public static let appAttestEnvironment = "TRUSTSUITE_SIM_APPATTEST_ENVIRONMENT"
    /// A `device` state folder for the App Attest device (created when it holds none); default: memory.
    public static let deviceState = "TRUSTSUITE_SIM_DEVICE_STATE"
    /// The seed of the device's test CA (a decimal number): the same roots on every run.
    public static let deviceSeed = "TRUSTSUITE_SIM_DEVICE_SEED"
    /// `1` (default) or `0`: `DCAppAttestService.isSupported`.
    public static let appAttestSupported = "TRUSTSUITE_SIM_APPATTEST_SUPPORTED"
    /// `1` (default) or `0`: `DCDevice.isSupported`.
    public static let deviceCheckSupported = "TRUSTSUITE_SIM_DEVICECHECK_SUPPORTED"
    /// One-shot failures, in order: `CALL:CODE`, comma-separated; CALL is
    /// `generateKey`, `attestKey`, `generateAssertion` or `generateToken`,
    /// CODE a `DCError.Code` name (`serverUnavailable`, `invalidKey`, …).
    public static let appAttestFailures = "TRUSTSUITE_SIM_APPATTEST_FAILURES"

    struct AppAttestRead {
        var settings = AppAttestSettings()
        var failures: [AppAttestCall: [DeviceCheckFailure]] = [:]
    }

    static func readAppAttest(_ environment: [String: String], problems: inout [String]) -> AppAttestRead {
        var read = AppAttestRead()
        if let appId = environment[appAttestAppID], !appId.isEmpty { read.settings.appId = appId }
        if let name = environment[appAttestEnvironment] {
            if let value = AppAttestEnvironment(rawValue: name) {
                read.settings.environment = value
            } else {
                problems.append("\(appAttestEnvironment)=\(name): not development or production")
            }
        }
        if let path = environment[deviceState], !path.isEmpty { read.settings.stateFolder = URL(fileURLWithPath: path) }
        if let text = environment[deviceSeed] {
            if let seed = UInt64(text) {
                read.settings.seed = seed
            } else {
                problems.append("\(deviceSeed)=\(text): not a decimal number")
            }
        }
        if let value = flag(appAttestSupported, environment, problems: &problems) { read.settings.isSupported = value }
        if let value = flag(deviceCheckSupported, environment, problems: &problems) { read.settings.deviceCheckSupported = value }
        if let text = environment[appAttestFailures] {
            for entry in list(text) {
                let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
                if parts.count == 2, let call = AppAttestCall(rawValue: parts[0]), let failure = DeviceCheckFailure(name: parts[1]) {
                    read.failures[call, default: []].append(failure)
                } else {
                    problems.append(
                        "\(appAttestFailures): \(entry) is not CALL:CODE (calls: \(AppAttestCall.allCases.map(\.rawValue).joined(separator: ", ")); codes: \(DeviceCheckFailure.allCases.map(\.name).joined(separator: ", ")))"
                    )
                }
            }
        }
        return read
    }
}
