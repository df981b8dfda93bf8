import JSON
import Geodesy
import Geofencing
import SpatialIndex
import CommandSupport

/// `geofence-bench state`: the TransitionDetector's memory for a large fleet, measured.
struct StateCommand: BenchSubcommand {
    static let name = "state"
    static let help = """
        geofence-bench state [--devices N] [--json]
          Builds a detector over 1,000 sites with two concentric fences each (500 m and 800 m), feeds
          N devices (default 10,000,000) one fix each at a site, so that every device is inside
          two fences and holds exactly two entries, and reports the detector's per-device state
          (stateBytes, after reserving room for the fleet), the bytes per device, and the growth
          of the process's peak resident set size across the run (MiB), with the seconds taken.
        """

    static let options: [Arguments.Option] = [.value("devices"), .flag("json")]

    let devices: Int
    let json: Bool

    init(arguments args: Arguments) throws(UsageError) {
        devices = try args.int("devices", default: 10_000_000, in: 1...Int(Int32.max))
        // A device's track, its two entries and the id tables: about 100 bytes.
        try MemoryBudget.check(devices, bytesEach: 128, option: "devices")
        json = args.flag("json")
    }

    func execute() throws {
        var fences: [Fence] = []
        for site in 0..<1_000 {
            let center = try! LatLng(latitude: -60 + 0.12 * Double(site), longitude: -170 + 0.34 * Double(site))
            fences.append(try! Fence(id: Int32(2 * site), center: center, radiusMeters: 500))
            fences.append(try! Fence(id: Int32(2 * site + 1), center: center, radiusMeters: 800))
        }
        var detector: TransitionDetector
        do {
            detector = try TransitionDetector(fences: fences)
        } catch {
            throw BenchError("\(error)")
        }
        let rssBefore = ProcessStats.peakRSSMegabytes()
        let start = ProcessStats.monotonicSeconds()
        detector.reserveCapacity(devices: devices, entries: 2 * devices)
        var events: [TransitionEvent] = []
        for device in 0..<devices {
            let site = device % 1_000
            detector.process(
                device: Int32(device), time: 0, latitude: -60 + 0.12 * Double(site),
                longitude: -170 + 0.34 * Double(site), accuracy: 5, into: &events)
        }
        let seconds = ProcessStats.monotonicSeconds() - start
        let rssGrowth = ProcessStats.peakRSSMegabytes() - rssBefore
        let bytes = detector.stateBytes
        let perDevice = Double(bytes) / Double(devices)
        if json {
            var o = JSONObject()
            o.set("devices", devices)
            o.set("entries", detector.stateEntryCount)
            o.set("state_bytes", bytes)
            o.set("bytes_per_device", perDevice, decimals: 2)
            o.set("bytes_per_idle_device", TransitionDetector.bytesPerIdleDevice)
            o.set("bytes_per_fence_entry", TransitionDetector.bytesPerFenceEntry)
            o.set("peak_rss_growth_mib", rssGrowth, decimals: 1)
            o.set("seconds", seconds, decimals: 3)
            print(o.text)
        } else {
            print(
                "\(devices) devices, \(detector.stateEntryCount) fence entries: \(bytes) bytes of state "
                    + "(\(formatFixed(perDevice, 2)) per device), peak RSS +\(formatFixed(rssGrowth, 1)) MiB, "
                    + "\(formatFixed(seconds, 2)) s")
        }
    }
}
