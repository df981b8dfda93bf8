#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import ResponderStore
import Responders

// The writer that ResponderStoreTests kills with SIGKILL: opens the phone queue at PATH for
// responder 1 and appends and acknowledges in a seeded random loop until it is killed.
// Protocol on standard output (unbuffered, one line per event):
//   a FIRST LAST   about to append sequences FIRST...LAST
//   A FIRST LAST   that append committed
//   d THROUGH      about to acknowledge everything up to THROUGH
//   D THROUGH      that acknowledgement committed
// Every fix's fields are a function of its sequence (QueueCrashChild.expectedFix), so the
// parent can check what it reads back.
// Usage: QueueCrashChild PATH SEED

func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 { exit(3) }
            offset += n
        }
    }
}

/// The fix stored under `sequence`.
func expectedFix(_ sequence: Int64) -> LocationFix {
    LocationFix(
        time: Double(sequence), latitude: Double(sequence % 90), longitude: Double((sequence * 7) % 180),
        accuracy: Double(sequence % 50))
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    say("usage: QueueCrashChild PATH SEED")
    exit(2)
}
do {
    let queue = try PhoneQueue(path: arguments[1], responder: ResponderID(1))
    var rng = SplitMix64(seed: seed)
    while true {
        if rng.nextUnit() < 0.6 {
            let count = 1 + Int(rng.next() % 4)
            let first = queue.lastSequence + 1, last = first + Int64(count) - 1
            say("a \(first) \(last)")
            try queue.append(contentsOf: (first...last).map(expectedFix), duty: .onMission)
            say("A \(first) \(last)")
        } else {
            let batch = try queue.peek(limit: 1 + Int(rng.next() % 5))
            guard let through = batch.last?.sequence else { continue }
            say("d \(through)")
            try queue.acknowledge(through: through)
            say("D \(through)")
        }
    }
} catch {
    say("error \(error)")
    exit(1)
}
