import Foundation
import KeychainAccessControl
import KeychainModel

extension Simulation {
    /// The environment variables the simulation reads at start and on
    /// ``Simulation/reset()`` (docs/apple-api.md, "Simulation control").
    /// Lists are comma-separated; a value that does not parse is reported in
    /// ``Simulation/configurationProblems`` and the default is kept.
    public enum Environment {
        /// The application identifier (team ID + bundle ID). Default `TEAMID1234.com.example.app`.
        public static let appIdentifier = "TRUSTSUITE_SIM_APP_ID"
        /// The `keychain-access-groups` entitlement, in order. Default: none (the application identifier alone).
        public static let accessGroups = "TRUSTSUITE_SIM_ACCESS_GROUPS"
        /// The app groups, in order.
        public static let appGroups = "TRUSTSUITE_SIM_APP_GROUPS"
        /// `none`, `touchID`, `faceID` (default) or `opticID`.
        public static let biometry = "TRUSTSUITE_SIM_BIOMETRY"
        /// `1` (default) or `0`: biometry enrolled.
        public static let enrolled = "TRUSTSUITE_SIM_ENROLLED"
        /// `1` (default) or `0`: a passcode is set.
        public static let passcode = "TRUSTSUITE_SIM_PASSCODE"
        /// `0` (default) or `1`: the device is locked (it has been unlocked since boot unless `TRUSTSUITE_SIM_AFTER_BOOT=1`).
        public static let locked = "TRUSTSUITE_SIM_LOCKED"
        /// `1`: the device has not been unlocked since it booted.
        public static let afterBoot = "TRUSTSUITE_SIM_AFTER_BOOT"
        /// `1`: biometry is locked out.
        public static let lockout = "TRUSTSUITE_SIM_LOCKOUT"
        /// Companions: `watch`, `mac`, `vision`, or `watch-unlock-only` (paired and near, but not an authentication companion).
        public static let companions = "TRUSTSUITE_SIM_COMPANIONS"
        /// The queue of answers: `biometryMatch`, `biometryNoMatch`, `passcode`, `cancel`, `fallback`, `systemCancel`, `companion`.
        public static let answers = "TRUSTSUITE_SIM_ANSWERS"
        /// The answer for an empty queue; `strict` (default) fails the prompt and logs it.
        public static let defaultAnswer = "TRUSTSUITE_SIM_DEFAULT_ANSWER"
        /// The most calls (and prompts) the logs keep, the oldest dropped first (default 10000).
        public static let callLogLimit = "TRUSTSUITE_SIM_CALL_LOG_LIMIT"
        /// The clock at start, in seconds since 2001-01-01 (default 0).
        public static let clock = "TRUSTSUITE_SIM_CLOCK"
        /// How long an evaluated LAContext stays satisfied, in seconds (default: until invalidated).
        public static let contextLifetime = "TRUSTSUITE_SIM_CONTEXT_LIFETIME"
        /// `1`: every call's status and explanation is also written to standard error.
        public static let echo = "TRUSTSUITE_SIM_ECHO"

        struct Settings {
            var app = AppIdentity()
            var device = SimulatedDevice()
            var answers: [PromptAnswer] = []
            var defaultAnswer: PromptAnswer?
            var clock: Double = 0
            var contextLifetime: Double?
            var callLogLimit: Int?
        }

        static func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        static func flag(_ name: String, _ environment: [String: String], problems: inout [String]) -> Bool? {
            guard let text = environment[name] else { return nil }
            switch text {
            case SecName.kSecAttrKeyClassPrivate, "true", "yes": return true
            case SecName.kSecAttrKeyClassPublic, "false", "no": return false
            default:
                problems.append("\(name)=\(text): not 0 or 1")
                return nil
            }
        }

        static func number(_ name: String, _ environment: [String: String], problems: inout [String]) -> Double? {
            guard let text = environment[name] else { return nil }
            guard let value = Double(text), value.isFinite, value >= 0 else {
                problems.append("\(name)=\(text): not a number of seconds")
                return nil
            }
            return value
        }

        static func read(_ environment: [String: String], problems: inout [String]) -> Settings {
            var settings = Settings()
            if let identifier = environment[appIdentifier], !identifier.isEmpty { settings.app.applicationIdentifier = identifier }
            if let groups = environment[accessGroups] { settings.app.keychainAccessGroups = list(groups) }
            if let groups = environment[appGroups] { settings.app.applicationGroups = list(groups) }
            if let name = environment[biometry] {
                if let kind = BiometryKind.allCases.first(where: { $0.name == name }) {
                    settings.device.biometry = kind
                } else {
                    problems.append("\(biometry)=\(name): not none, touchID, faceID or opticID")
                }
            }
            if let value = flag(enrolled, environment, problems: &problems) { settings.device.enrolled = value }
            if let value = flag(passcode, environment, problems: &problems) { settings.device.passcodeSet = value }
            if let value = flag(locked, environment, problems: &problems) { settings.device.locked = value }
            if let value = flag(afterBoot, environment, problems: &problems) { settings.device.unlockedSinceBoot = !value }
            if let value = flag(lockout, environment, problems: &problems) { settings.device.lockedOut = value }
            if let text = environment[companions] {
                for name in list(text) {
                    if let companion = SimulatedDevice.Companion(name: name) {
                        settings.device.companions.append(companion)
                    } else {
                        problems.append("\(companions): \(name) is not watch, mac, vision or watch-unlock-only")
                    }
                }
            }
            if let text = environment[answers] {
                for name in list(text) {
                    if let answer = PromptAnswer(rawValue: name) {
                        settings.answers.append(answer)
                    } else {
                        problems.append(
                            "\(answers): \(name) is not an answer (\(PromptAnswer.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                }
            }
            if let name = environment[defaultAnswer], name != "strict" {
                if let answer = PromptAnswer(rawValue: name) {
                    settings.defaultAnswer = answer
                } else {
                    problems.append("\(defaultAnswer)=\(name): not strict or an answer")
                }
            }
            if let value = number(clock, environment, problems: &problems) { settings.clock = value }
            settings.contextLifetime = number(contextLifetime, environment, problems: &problems)
            if let value = number(callLogLimit, environment, problems: &problems) {
                if value >= 1, value <= 100_000_000 {
                    settings.callLogLimit = Int(value)
                } else {
                    problems.append("\(callLogLimit)=\(value): not between 1 and 100000000")
                }
            }
            return settings
        }
    }
}
