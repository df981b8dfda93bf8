/// Why a ``FixStream`` handed to a scoring function was rejected. Rows are 0-based fix indexes
/// (row k of the stream is line k + 2 of fixes.csv, after the header).
public enum FixStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A column array whose length differs from `device`'s.
    case lengthMismatch(column: String, expected: Int, found: Int)
    /// The scoring needs the truth columns and the stream has none.
    case missingTruth
    /// A value out of its range: a negative device, a non-finite time, a latitude outside
    /// [-90, 90], a longitude outside [-180, 180], an accuracy that is not a finite number >= 0.
    case invalidValue(row: Int, column: String, value: Double)

    /// What is wrong, naming the column and row.
    public var description: String {
        switch self {
        case let .lengthMismatch(column, expected, found):
            return "fix stream column \(column) has \(found) values, device has \(expected)"
        case .missingTruth: return "the fix stream has no truth columns (true_lat, true_lon)"
        case let .invalidValue(row, column, value): return "fix \(row): \(column) out of range: \(value)"
        }
    }
}

extension FixStream {
    /// Checks that every column has ``count`` values (the truth columns too, or none when
    /// `requiringTruth` is false) and every value is in range (see ``FixStreamError``). O(n).
    /// - Throws: ``FixStreamError`` naming the first bad column or row.
    public func validate(requiringTruth: Bool) throws(FixStreamError) {
        let n = count
        let columns: [(String, Int)] = [
            ("t", time.count), ("lat", latitude.count), ("lon", longitude.count),
            ("accuracy_m", accuracy.count)
        ]
        for (name, found) in columns where found != n { throw .lengthMismatch(column: name, expected: n, found: found) }
        if requiringTruth && !hasTruth && n > 0 { throw .missingTruth }
        if hasTruth || requiringTruth {
            if trueLatitude.count != n { throw .lengthMismatch(column: "true_lat", expected: n, found: trueLatitude.count) }
            if trueLongitude.count != n { throw .lengthMismatch(column: "true_lon", expected: n, found: trueLongitude.count) }
        }
        for k in 0..<n {
            if device[k] < 0 { throw .invalidValue(row: k, column: "device", value: Double(device[k])) }
            if !time[k].isFinite { throw .invalidValue(row: k, column: "t", value: time[k]) }
            if !(abs(latitude[k]) <= 90) { throw .invalidValue(row: k, column: "lat", value: latitude[k]) }
            if !(abs(longitude[k]) <= 180) { throw .invalidValue(row: k, column: "lon", value: longitude[k]) }
            if !(accuracy[k].isFinite && accuracy[k] >= 0) { throw .invalidValue(row: k, column: "accuracy_m", value: accuracy[k]) }
            if hasTruth {
                if !(abs(trueLatitude[k]) <= 90) { throw .invalidValue(row: k, column: "true_lat", value: trueLatitude[k]) }
                if !(abs(trueLongitude[k]) <= 180) { throw .invalidValue(row: k, column: "true_lon", value: trueLongitude[k]) }
            }
        }
    }
}
