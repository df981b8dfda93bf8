import Geofencing
import Workloads

extension FixShards {
    /// Partitions the noisy fixes of `fixes` into `count` shards (the truth columns are not
    /// copied).
    /// - Precondition: `count >= 1` and `fixes.count <= Int32.max`.
    public init(_ fixes: FixStream, count: Int) {
        self.init(
            device: fixes.device, time: fixes.time, latitude: fixes.latitude, longitude: fixes.longitude,
            accuracy: fixes.accuracy, count: count)
    }
}
