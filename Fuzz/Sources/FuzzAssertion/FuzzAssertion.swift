import FuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point for the assertion parser; aborts when the oracle of
/// `FuzzTargets.assertion` reports a violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssertion(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let problems = FuzzTargets.assertion(bytes)
    if !problems.isEmpty {
        for problem in problems { print("FuzzAssertion oracle: \(problem)") }
        abort()
    }
    return 0
}
