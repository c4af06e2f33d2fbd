/// Why the probe could not run (docs/probe.md, Output: exit status 2): a bad
/// config, a refused target, a server unreachable at the start. A check that
/// goes wrong against a running server is not an error of this kind: it is
/// that check's `error` grade.
public struct ProbeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Stable codes, for scripts and tests.
    public enum Code: String, Sendable, Hashable {
        /// The config file is missing, unreadable or not JSON.
        case configUnreadable
        /// A field of the config is missing, of the wrong type or out of range (one per field).
        case configField
        /// `baseURL` is not loopback and `--allow-remote` was not given.
        case remoteRefused
        /// The server did not answer the first challenge request.
        case serverUnreachable
        /// The software device could not be made or used (its state folder).
        case device
        /// `--only` names no check.
        case unknownCheck
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// Errors are equal when their codes are (the text is for people).
    public static func == (lhs: ProbeError, rhs: ProbeError) -> Bool { lhs.code == rhs.code }
}

/// Every bad field of a config at once, one line each (docs/probe.md: a
/// clear line per bad field, exit 2).
public struct ProbeConfigErrors: Error, CustomStringConvertible, Sendable {
    public let errors: [ProbeError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
