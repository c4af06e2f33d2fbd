import FuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point for the attestation parser; aborts when the oracle of
/// `FuzzTargets.attestation` reports a violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestation(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let problems = FuzzTargets.attestation(bytes)
    if !problems.isEmpty {
        for problem in problems { print("FuzzAttestation oracle: \(problem)") }
        abort()
    }
    return 0
}
