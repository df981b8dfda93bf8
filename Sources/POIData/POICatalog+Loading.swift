import FastCSV
import Geodesy

extension POICatalog {
    /// Loads the POI CSV at `path`, streaming it in chunks (the file is never held whole).
    /// - Throws: ``POIError``: the first invalid row (unless `options.skipInvalid`), or a
    ///   file-level problem.
    public init(path: String, options: POILoadOptions = POILoadOptions()) throws(POIError) {
        let reader: CSVReader
        do {
            reader = try CSVReader(path: path)
        } catch {
            throw POIError(error)
        }
        try self.init(reader: reader, options: options)
    }

    /// Loads POI CSV text (for tests and small inputs).
    public init(csv text: String, options: POILoadOptions = POILoadOptions()) throws(POIError) {
        try self.init(reader: CSVReader(string: text), options: options)
    }

    /// Loads every record of `reader`: the first is the header, columns are found by name.
    ///
    /// Row rules: exactly as many fields as the header; `lat` and `lon` decimal numbers (`.` as
    /// separator), finite, `|lat| <= 90`, `|lon| <= 180`; `osm_type` one of node, way, relation and
    /// `osm_id` a non-negative integer when those columns exist; `category` empty or a
    /// ``POICategory`` raw value; text valid UTF-8. Fields are checked in file order, so the
    /// error names the leftmost bad field. An empty `category` is filled from the tags by
    /// `options.mapping`.
    /// - Complexity: O(bytes); about one allocation per POI amortised (array growth).
    public init(reader: CSVReader, options: POILoadOptions = POILoadOptions()) throws(POIError) {
        let header: CSVHeader
        do {
            header = try CSVHeader(reading: reader)
        } catch {
            throw POIError(error)
        }
        var loader = try POILoader(header: header, options: options)
        self.init(tagNames: loader.tagNames)
        do {
            while let record = try reader.nextRecord() {
                try loader.load(record, into: &self)
            }
        } catch let error as CSVError {
            // The reader knows the field's position; the header knows its name.
            var named = POIError(error)
            if named.columnName == nil && named.column >= 1 && named.column <= header.names.count {
                named.columnName = header.names[named.column - 1]
            }
            throw named
        } catch let error as POIError {
            throw error
        } catch {
            // The reader and header throw only CSVError; anything else is reported, not trapped.
            throw POIError(.io, line: 0, column: 0, message: "\(error)")
        }
    }
}
