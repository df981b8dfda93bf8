import FastCSV
import Geodesy

/// The per-file state of a load: where each field is, the tag rules resolved to column indexes,
/// the duplicate table.
struct POILoader {
    enum Role {
        case latitude, longitude, name, osmType, osmID, category
        case tag(Int)
    }

    let header: CSVHeader
    let options: POILoadOptions
    /// Fields with a role, in file order.
    let plan: [(field: Int, role: Role)]
    /// Field index of each text slot: slot 0 the name (-1 if absent), then the tags.
    let slotFields: [Int]
    let tagNames: [String]
    /// Tag rules whose key is a column of the file: (field, value bytes, category code).
    let rules: [(field: Int, value: [UInt8], code: UInt8)]
    let headerList: String
    var firstLineOf = OSMKeyTable()
    /// UTF-8 of the OSM type names and category names, in `allCases` order.
    static let typeBytes = OSMElementType.allCases.map { Array($0.rawValue.utf8) }
    static let categoryBytes = POICategory.allCases.map { Array($0.rawValue.utf8) }

    init(header: CSVHeader, options: POILoadOptions) throws(POIError) {
        self.header = header
        self.options = options
        let c = options.columns
        func require(_ name: String) throws(POIError) -> Int {
            guard let i = header.index(of: name) else {
                throw POIError(
                    .missingColumn, line: header.line, column: 0, columnName: name,
                    message: "expected a column named \"\(name)\" in the header, found \(header.names.joined(separator: ","))")
            }
            return i
        }
        var plan: [(field: Int, role: Role)] = []
        plan.append((try require(c.latitude), .latitude))
        plan.append((try require(c.longitude), .longitude))
        let nameField = c.nameIsOptional ? header.index(of: c.name) : try require(c.name)
        if let nameField { plan.append((nameField, .name)) }
        if let i = header.index(of: c.osmType) { plan.append((i, .osmType)) }
        if let i = header.index(of: c.osmID) { plan.append((i, .osmID)) }
        if let i = header.index(of: c.category) { plan.append((i, .category)) }
        let taken = Set(plan.map(\.field))
        var tagNames: [String] = []
        var slotFields = [nameField ?? -1]
        for (i, name) in header.names.enumerated() where !taken.contains(i) && header.index(of: name) == i {
            if let wanted = c.tagColumns, !wanted.contains(name) { continue }
            plan.append((i, .tag(tagNames.count)))
            tagNames.append(name)
            slotFields.append(i)
        }
        plan.sort { $0.field < $1.field }
        self.plan = plan
        self.slotFields = slotFields
        self.tagNames = tagNames
        rules = options.mapping.rules.compactMap { rule in
            header.index(of: rule.key).map { ($0, Array(rule.value.utf8), UInt8(rule.category.ordinal)) }
        }
        headerList = header.names.joined(separator: ",")
    }

    /// Checks one record and appends it to `catalog`, or records / throws its error.
    mutating func load(_ record: CSVRecord, into catalog: inout POICatalog) throws(POIError) {
        catalog.report.rowsRead += 1
        do {
            try append(record, to: &catalog)
        } catch {
            guard options.skipInvalid && error.reason.isRowLevel else { throw error }
            catalog.report.skipped[error.reason, default: 0] += 1
            if catalog.report.skippedErrors.count < POILoadReport.maxRecordedErrors {
                catalog.report.skippedErrors.append(error)
            }
        }
    }

    private func fail(_ reason: POIError.Reason, _ record: CSVRecord, _ field: Int, _ message: String) -> POIError {
        POIError(reason, line: record.line, column: field + 1, columnName: header.names[field], message: message)
    }

    private mutating func append(_ record: CSVRecord, to catalog: inout POICatalog) throws(POIError) {
        let expected = header.names.count
        if record.count != expected {
            let short = record.count < expected
            throw POIError(
                .fieldCount, line: record.line, column: short ? record.count + 1 : expected + 1,
                columnName: short ? header.names[record.count] : nil,
                message: "expected \(expected) fields (\(headerList)), found \(record.count)")
        }
        var latitude = 0.0, longitude = 0.0
        var typeCode = POICatalog.noCode
        var id: Int64 = -1
        var categoryCode = POICatalog.noCode
        for (field, role) in plan {
            let bytes = record[field]
            switch role {
            case .latitude:
                latitude = try coordinate(record, field, limit: 90, what: "latitude")
            case .longitude:
                longitude = try coordinate(record, field, limit: 180, what: "longitude")
            case .osmType:
                guard let type = Self.typeBytes.firstIndex(where: { equal(bytes, $0) }) else {
                    throw fail(.invalidOSMType, record, field, "expected node, way or relation, found \(shown(bytes))")
                }
                typeCode = UInt8(type)
            case .osmID:
                guard let value = parseInt64(bytes), value >= 0, bytes.first != 0x2D, bytes.first != 0x2B else {
                    throw fail(.invalidOSMID, record, field, "expected a non-negative integer, found \(shown(bytes))")
                }
                id = value
            case .category:
                if bytes.isEmpty { break }
                guard let category = Self.categoryBytes.firstIndex(where: { equal(bytes, $0) }) else {
                    let names = POICategory.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fail(.invalidCategory, record, field, "expected an empty category or one of \(names), found \(shown(bytes))")
                }
                categoryCode = UInt8(category)
            case .name, .tag:
                if !isUTF8(bytes) {
                    throw fail(.invalidUTF8, record, field, "expected UTF-8 text, found an invalid byte sequence")
                }
            }
        }
        if categoryCode == POICatalog.noCode {
            for rule in rules where equal(record[rule.field], rule.value) {
                categoryCode = rule.code
                break
            }
        }
        if typeCode != POICatalog.noCode && id >= 0 {
            if let first = firstLineOf.insert(typeCode: typeCode, id: id, line: record.line) {
                catalog.report.duplicates.append(
                    POIDuplicate(
                        osmType: OSMElementType.allCases[Int(typeCode)], osmID: id,
                        firstLine: first, line: record.line))
                if !options.keepDuplicates { return }
            }
        }
        catalog.locations.append(LatLng(uncheckedLatitude: latitude, longitude: longitude))
        catalog.categoryCodes.append(categoryCode)
        catalog.osmTypeCodes.append(typeCode)
        catalog.osmIDs.append(id)
        catalog.lines.append(record.line)
        catalog.rows.append(catalog.report.rowsRead - 1)
        for field in slotFields {
            if field >= 0 { catalog.text.append(contentsOf: record[field]) }
            catalog.textEnds.append(catalog.text.count)
        }
    }

    /// A coordinate field: a finite decimal number within `[-limit, limit]` degrees.
    private func coordinate(_ record: CSVRecord, _ field: Int, limit: Double, what: String) throws(POIError) -> Double {
        let bytes = record[field]
        if bytes.isEmpty {
            throw fail(.missingCoordinate, record, field, "expected a \(what) in degrees, found an empty field")
        }
        guard let value = parseDouble(bytes), value.isFinite else {
            if parseDouble(bytes, allowingNonFinite: true) != nil {
                throw fail(.nonFiniteCoordinate, record, field, "expected a finite \(what) in degrees, found \(shown(bytes))")
            }
            throw fail(.invalidNumber, record, field, "expected a \(what) as a decimal number, found \(shown(bytes))")
        }
        guard abs(value) <= limit else {
            let reason: POIError.Reason = limit == 90 ? .latitudeOutOfRange : .longitudeOutOfRange
            throw fail(reason, record, field, "expected a \(what) in [-\(Int(limit)), \(Int(limit))] degrees, found \(shown(bytes))")
        }
        return value
    }
}

/// Whether `bytes` are exactly the UTF-8 of `text`.
@inline(__always)
func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { $0.elementsEqual(bytes) }
}

@inline(__always)
func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
    bytes.count == other.count && other.withUnsafeBufferPointer { $0.elementsEqual(bytes) }
}

/// UTF-8 validity, with an ASCII fast path (most OSM names are ASCII).
func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b >= 0x80 {
        return String(validating: bytes, as: UTF8.self) != nil
    }
    return true
}

/// A field as shown in a message: in double quotes, shortened past 40 bytes (one terminal line).
func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    "\"" + MessageText.clipped(bytes) + "\""
}
