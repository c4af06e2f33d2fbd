import FuzzTargets

/// libFuzzer entry point of the `acl` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.acl.entry(start, count)
}
