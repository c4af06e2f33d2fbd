import FuzzTargets

/// libFuzzer entry point of the `coseKey` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCOSEKey(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.coseKey.entry(start, count)
}
