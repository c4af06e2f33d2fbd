import FuzzTargets

/// libFuzzer entry point of the `laRight` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLARight(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.laRight.entry(start, count)
}
