import FuzzTargets

/// libFuzzer entry point: `FuzzTargets.assertion` on each input (see its oracle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssertion(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.libFuzzerEntry(start, count, name: "FuzzAssertion", FuzzTargets.assertion)
}
