/// Why an index could not be built over the fences given: a count past a fixed-width field of
/// its layout, or a tuning value out of range. Each case names the limit.
public enum IndexCapacityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More fences than the index's positions can number.
    case tooManyFences(count: Int, limit: Int)
    /// More groups of fences (runs of one center) than the index's group numbers can hold.
    case tooManyGroups(count: Int, limit: Int)
    /// A `cellsPerRadius` that is not a finite number > 0.
    case invalidCellsPerRadius(Double)

    /// What was too large, with the limit.
    public var description: String {
        switch self {
        case let .tooManyFences(count, limit):
            return "\(count) fences: the lat/lng grid index holds fewer than \(limit) (2^29)"
        case let .tooManyGroups(count, limit):
            return "\(count) groups of fences (distinct centers): the lat/lng grid index holds fewer than \(limit) (2^24)"
        case let .invalidCellsPerRadius(value):
            return "cells per radius must be a finite number > 0, got \(value)"
        }
    }
}
