/// The probe config of docs/probe.md for the example server (its endpoints
/// and status lists), for `baseURL` and `appId`; `extra` is appended
/// inside the object (`, "timeoutSeconds": 1`).
public enum ProbeConfigText {
    /// With `acceptedWhen` (the default), the attest endpoint's
    /// `acceptedWhen` reads the example server's `"status": "attested"`;
    /// servers that write no such field (pyattest's) go without.
    public static func exampleServer(baseURL: String, appId: String, extra: String = "", acceptedWhen: Bool = true) -> String {
        let signal = acceptedWhen ? #", "acceptedWhen": { "pointer": "/status", "equals": "attested" }"# : ""
        return """
            {
              "appId": "\(appId)",
              "environment": "development",
              "baseURL": "\(baseURL)",
              "headers": { "X-Test": "1" },
              "challenge": { "method": "POST", "path": "/appattest/challenge", "pointer": "/challenge", "encoding": "base64" },
              "attest": { "method": "POST", "path": "/appattest/attest",
                          "body": { "keyId": "{keyId:base64}", "attestation": "{attestationObject:base64}", "challenge": "{challenge}" },
                          "accepted": [200, 201, 204], "refused": [400, 401, 403, 409, 422]\(signal) },
              "assert": { "method": "POST", "path": "/appattest/assert",
                          "body": { "keyId": "{keyId:base64}", "assertion": "{assertion:base64}", "clientData": "{clientData:base64}" },
                          "accepted": [200], "refused": [400, 401, 403, 404, 409, 422] },
              "clientData": "{\\"challenge\\":\\"{challenge}\\"}",
              "clientDataHash": "sha256"\(extra)
            }
            """
    }
}
