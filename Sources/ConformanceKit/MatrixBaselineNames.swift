import Foundation

/// Renaming an implementation made `matrix --baseline` compare nothing for
/// it and exit 0 (issue 44, item 9): a baseline implementation this matrix
/// does not run is refused before anything runs.
extension MatrixBaseline.Earlier {
    /// The baseline's implementations not among `names` (this matrix's
    /// columns, the reference included), sorted.
    public func missing(from names: [String]) -> [String] {
        self.names.subtracting(names).sorted()
    }
}
