/// One circular fence of a workload, as written in `fences.csv`
/// (`id,lat,lon,radius_m,poi_id,tier`). Degrees and metres.
public struct WorkloadFence: Hashable, Sendable {
    public var id: Int32
    public var latitude: Double
    public var longitude: Double
    /// Radius in metres, finite and >= 0.
    public var radius: Double
    public var poiID: Int32
    public var tier: Int32

    public init(id: Int32, latitude: Double, longitude: Double, radius: Double, poiID: Int32, tier: Int32) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.poiID = poiID
        self.tier = tier
    }
}

/// A stream of GPS fixes in struct-of-arrays form, as in `fixes.csv`
/// (`device,t,lat,lon,accuracy_m`), sorted by time; optionally with the noise-free truth
/// (`truth.csv`: row k is the true position behind fix k).
///
/// Invariant: every array has `count` elements (the truth arrays are empty or have `count`).
public struct FixStream: Sendable {
    public var device: [Int32] = []
    /// Seconds since an arbitrary epoch.
    public var time: [Double] = []
    public var latitude: [Double] = []
    public var longitude: [Double] = []
    /// Reported horizontal accuracy in metres (one sigma-ish radius, as phones report it).
    public var accuracy: [Double] = []
    public var trueLatitude: [Double] = []
    public var trueLongitude: [Double] = []

    public init() {}

    public var count: Int { device.count }
    public var hasTruth: Bool { !trueLatitude.isEmpty }

    public mutating func reserveCapacity(_ n: Int, truth: Bool) {
        device.reserveCapacity(n)
        time.reserveCapacity(n)
        latitude.reserveCapacity(n)
        longitude.reserveCapacity(n)
        accuracy.reserveCapacity(n)
        if truth {
            trueLatitude.reserveCapacity(n)
            trueLongitude.reserveCapacity(n)
        }
    }
}

/// Fences plus fixes: everything one benchmark run reads.
public struct Workload: Sendable {
    public var fences: [WorkloadFence]
    public var fixes: FixStream

    public init(fences: [WorkloadFence], fixes: FixStream) {
        self.fences = fences
        self.fixes = fixes
    }
}
