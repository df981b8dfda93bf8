/// A hash map from an OSM identity (type code, id) to the line where it was first seen, for
/// duplicate detection while loading a million rows.
///
/// Representation: open addressing with linear probing over two flat arrays (`keys`, `lines`);
/// a key is `(id << 2 | typeCode) + 1`, so 0 marks an empty slot; the capacity is a power of two
/// kept at least twice the count (load factor <= 1/2, so probes stay short); the slot is chosen
/// by Fibonacci hashing (multiply by 2^64 / φ, keep the top bits). Ids of 2^61 and above (far
/// beyond OSM's) go to a plain `Dictionary`. About 5x cheaper per insert than
/// `Dictionary<Struct, Int>` with SipHash, which took a third of the load time.
struct OSMKeyTable {
    private var keys: [UInt64]
    private var lines: [Int]
    private var count = 0
    private var shift: UInt64
    private var overflow: [UInt64: Int] = [:]

    init() {
        // 1,024 slots: grows by doubling, the first few growths are cheap.
        keys = Array(repeating: 0, count: 1_024)
        lines = Array(repeating: 0, count: 1_024)
        shift = 64 - 10
    }

    /// Records `line` for (type, id) unless present; returns the earlier line if it was.
    mutating func insert(typeCode: UInt8, id: Int64, line: Int) -> Int? {
        guard id < 1 << 61 else {
            let key = UInt64(id) &* 4 &+ UInt64(typeCode)
            if let first = overflow[key] { return first }
            overflow[key] = line
            return nil
        }
        let key = (UInt64(id) << 2 | UInt64(typeCode)) &+ 1
        if 2 * (count + 1) > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)  // 2^64 / golden ratio
        while true {
            let k = keys[slot]
            if k == key { return lines[slot] }
            if k == 0 { break }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        lines[slot] = line
        count += 1
        return nil
    }

    private mutating func grow() {
        let oldKeys = keys, oldLines = lines
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        lines = Array(repeating: 0, count: oldKeys.count * 2)
        shift -= 1
        let mask = keys.count - 1
        for (k, line) in zip(oldKeys, oldLines) where k != 0 {
            var slot = Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = k
            lines[slot] = line
        }
    }
}
