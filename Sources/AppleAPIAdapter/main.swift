import AppleAPIDriver
import Foundation

// trustsuite-apple-api-adapter: the apple-api driver as an adapter
// (docs/vectors.md, "Adapter protocol"): JSON lines on stdin and stdout.
// On Linux it replays through this project's Security and LocalAuthentication
// over the simulation; built where Apple's frameworks exist, the same source
// replays through Apple's own (not verified on this project's machines; the
// device, user and clock steps need the simulation and fail there).

#if canImport(SecuritySimulation)
let hooks: (any AppleAPIHooks)? = SimulationHooks()
#else
let hooks: (any AppleAPIHooks)? = nil
#endif

func emit(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

if CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(
        """
        usage: trustsuite-apple-api-adapter
        Speaks the adapter protocol on stdin/stdout for the apple-api family:
          trustsuite run --adapter .build/debug/trustsuite-apple-api-adapter --family apple-api
        """)
    exit(0)
}

emit(["adapter": "trustsuite-apple-api", "version": "1", "families": ["apple-api"], "gradeOutputs": true])
let driver = AppleAPIDriver(hooks: hooks)
while let line = readLine(strippingNewline: true) {
    guard let data = line.data(using: .utf8),
        let request = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else {
        FileHandle.standardError.write(Data("trustsuite-apple-api-adapter: a request that is not a JSON object\n".utf8))
        continue
    }
    let id = request["id"] ?? NSNull()
    guard request["family"] as? String == "apple-api", let input = request["input"] as? [String: Any] else {
        emit(["id": id, "result": "unsupported", "error": "only the apple-api family"])
        continue
    }
    do {
        emit(["id": id, "result": "valid", "output": try await driver.replay(input)])
    } catch {
        emit(["id": id, "result": "invalid", "error": "\(error)"])
    }
}
