import FuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point: decodes the input in all three modes and checks the
/// oracle of `FuzzTargets.cbor` (mode nesting, decode→encode→decode
/// idempotence, offsets inside the input). A violated property aborts, so
/// libFuzzer saves the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let problems = FuzzTargets.cbor(bytes)
    if !problems.isEmpty {
        for problem in problems { print("FuzzCBOR oracle: \(problem)") }
        abort()
    }
    return 0
}
