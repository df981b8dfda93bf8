import Responders

/// How a fix's fields sit in a row: shared by the phone queue and the server store so both
/// bind, check and read them the same way.
enum FixColumns {
    /// Throws ``ResponderStoreError/invalidValue(path:sequence:field:value:)`` for the first
    /// field that is not finite (SQLite would store NaN as NULL).
    @inline(__always)
    static func check(_ fix: ReportedFix, path: String) throws(ResponderStoreError) {
        let f = fix.fix
        guard f.time.isFinite && f.latitude.isFinite && f.longitude.isFinite && f.accuracy.isFinite else {
            let fields = [("time", f.time), ("latitude", f.latitude), ("longitude", f.longitude), ("accuracy", f.accuracy)]
            let (name, value) = fields.first { !$0.1.isFinite }!
            throw .invalidValue(path: path, sequence: fix.sequence, field: name, value: value)
        }
    }

    /// Binds time, latitude, longitude, accuracy, duty, power mode at `first`, `first + 1`, ...
    static func bind(_ fix: ReportedFix, to statement: SQLiteStatement, from first: Int32) {
        statement.bind(first, fix.fix.time)
        statement.bind(first + 1, fix.fix.latitude)
        statement.bind(first + 2, fix.fix.longitude)
        statement.bind(first + 3, fix.fix.accuracy)
        statement.bind(first + 4, Int64(fix.duty.rawValue))
        statement.bind(first + 5, Int64(fix.powerMode.rawValue))
    }

    /// Reads a fix whose responder and sequence are given and whose other fields start at column `first`.
    /// Throws ``ResponderStoreError/corrupt(path:message:)`` naming the field when time,
    /// latitude, longitude or accuracy is not a finite number (a hand-edited file).
    static func read(
        _ statement: SQLiteStatement, responder: ResponderID, sequence: Int64, from first: Int32,
        path: String
    ) throws(ResponderStoreError) -> ReportedFix {
        for (offset, name) in ["time", "latitude", "longitude", "accuracy"].enumerated()
        where !statement.isFiniteNumber(first + Int32(offset)) {
            throw .corrupt(path: path, message: "fix \(sequence) of responder \(responder.rawValue): \(name) is not a finite number")
        }
        let dutyCode = statement.int64(first + 4), powerCode = statement.int64(first + 5)
        guard let duty = DutyState(rawValue: UInt8(truncatingIfNeeded: dutyCode)), (0...255).contains(dutyCode),
            let power = PowerMode(rawValue: UInt8(truncatingIfNeeded: powerCode)), (0...255).contains(powerCode)
        else {
            throw .corrupt(path: path, message: "fix \(sequence) of responder \(responder.rawValue): duty \(dutyCode), power mode \(powerCode)")
        }
        let fix = LocationFix(
            time: statement.double(first), latitude: statement.double(first + 1),
            longitude: statement.double(first + 2), accuracy: statement.double(first + 3))
        return ReportedFix(responder: responder, sequence: sequence, fix: fix, duty: duty, powerMode: power)
    }

    /// The column list, in bind order.
    static let names = "time, latitude, longitude, accuracy, duty, power_mode"
    /// Their declarations.
    static let declarations = """
        time REAL NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL, accuracy REAL NOT NULL,
        duty INTEGER NOT NULL, power_mode INTEGER NOT NULL
        """
}
