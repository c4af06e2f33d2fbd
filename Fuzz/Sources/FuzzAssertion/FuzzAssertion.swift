import FuzzTargets

/// libFuzzer entry point of the `assertion` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssertion(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.assertion.entry(start, count)
}
