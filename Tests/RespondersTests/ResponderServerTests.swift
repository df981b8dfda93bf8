import Geodesy
import Testing
@testable import Responders

@Suite struct ResponderServerTests {
    @Test func outOfOrderAndDuplicateBatchesNeverMoveTheLatestBackwards() throws {
        var server = ResponderServer(store: MemoryServerStore())
        let a = reported(1, 1, time: 100, latitude: 60.1), b = reported(1, 2, time: 160, latitude: 60.2),
            c = reported(1, 3, time: 220, latitude: 60.3)
        let first = try server.ingest([c, a], receivedAt: 225)
        #expect(first == IngestCounts(stored: 2, duplicates: 0, latestMoved: 1))
        let second = try server.ingest([b, a, c, c], receivedAt: 230)
        #expect(second == IngestCounts(stored: 1, duplicates: 3, latestMoved: 0))
        #expect(server.store.latest(of: ResponderID(1))?.fix == c)
        #expect(server.dispatcher.position(of: ResponderID(1))?.latitude == 60.3)
        #expect(server.store.historyCount() == 3)
        // A copy with other content under a stored sequence is a duplicate: the first copy wins.
        var changed = b
        changed.fix.latitude = 10
        let copy = try server.ingest([changed], receivedAt: 231)
        #expect(copy.duplicates == 1)
        #expect(server.store.historyByArrival().map(\.fix) == [a, c, b])  // by arrival, then responder and sequence
        // OFFLINE at 220 + 180; an old fix arriving later does not revive it.
        server.advance(to: 400)
        #expect(server.liveness.status(of: ResponderID(1)) == .offline)
        let old = try server.ingest([reported(1, 0, time: 200)], receivedAt: 401)
        #expect(old.stored == 1)
        #expect(server.liveness.status(of: ResponderID(1)) == .offline)
        #expect(server.lastTransitions.isEmpty)
    }

    /// A fix stamped in the future (a phone clock set wrong, a hostile client) is stored as
    /// sent, but orders no later than its arrival: the next fix taken after that arrival moves
    /// the latest location and keeps the responder ONLINE. Ordered by the phone's time alone, the
    /// store's latest location would stay on it for good.
    @Test func aFixFromTheFutureHoldsTheLatestOnlyUntilTheNextFix() throws {
        var server = ResponderServer(store: MemoryServerStore())
        let bogus = reported(1, 1, time: 1e300, latitude: 10)
        try server.ingest([bogus], receivedAt: 1_000)
        #expect(server.store.latest(of: ResponderID(1))?.fix == bogus)  // stored as sent
        var now = 1_000.0
        for k in 2...8 {
            now += 30
            let fix = reported(1, Int64(k), time: now - 2, latitude: 60 + Double(k) / 100)
            let counts = try server.ingest([fix], receivedAt: now)
            #expect(counts.latestMoved == 1, "fix \(k)")
            #expect(server.store.latest(of: ResponderID(1))?.fix == fix)
            #expect(server.dispatcher.position(of: ResponderID(1))?.latitude == fix.fix.latitude)
            #expect(server.liveness.status(of: ResponderID(1)) == .online)
        }
        // An older fix arriving late (taken before the bogus one arrived) still does not move it back.
        let late = try server.ingest([reported(1, 9, time: 990)], receivedAt: now + 1)
        #expect(late.latestMoved == 0)
        #expect(server.store.latest(of: ResponderID(1))?.fix.sequence == 8)
        // Within one arrival, fixes stamped later than it order by sequence.
        let a = StoredFix(fix: reported(2, 5, time: 2e9), receivedAt: 100)
        let b = StoredFix(fix: reported(2, 6, time: 1e9), receivedAt: 100)
        #expect(b.isNewer(than: a) && !a.isNewer(than: b))
        #expect(a.orderTime == 100)
    }

    /// A phone whose clock runs 10 minutes ahead uploads three queued fixes in one batch: all
    /// are stamped later than their arrival, so all order at the arrival, by sequence. The
    /// store's latest location is the last one (sequence 3); the dispatcher's position and the
    /// liveness duty must be that same fix, not the first of the batch.
    @Test func aBatchStampedAheadOfItsArrivalIsPlacedAtItsLastFix() throws {
        var server = ResponderServer(store: MemoryServerStore())
        let arrival = 10_000.0, ahead = 600.0
        let batch = [
            reported(1, 1, time: arrival - 30 + ahead, duty: .onDuty, latitude: 60.10),
            reported(1, 2, time: arrival - 15 + ahead, duty: .onDuty, latitude: 60.11),
            reported(1, 3, time: arrival + ahead, duty: .onMission, latitude: 60.12)
        ]
        try server.ingest(batch, receivedAt: arrival)
        #expect(server.store.latest(of: ResponderID(1))?.fix == batch[2])
        #expect(server.dispatcher.position(of: ResponderID(1))?.latitude == 60.12)
        #expect(server.liveness.duty(of: ResponderID(1)) == .onMission)
        // On a mission the responder is OFFLINE 60 s after the arrival, not 180 s.
        server.advance(to: arrival + 60)
        #expect(server.liveness.status(of: ResponderID(1)) == .offline)
        // The same batch arriving in reverse order ends the same.
        var reversed = ResponderServer(store: MemoryServerStore())
        try reversed.ingest(batch.reversed(), receivedAt: arrival)
        #expect(reversed.dispatcher.position(of: ResponderID(1))?.latitude == 60.12)
        #expect(reversed.liveness.duty(of: ResponderID(1)) == .onMission)
    }

    @Test func replayingTheHistoryGivesTheLiveState() throws {
        var rng = SplitMix64(seed: 77)
        var live = ResponderServer(store: MemoryServerStore())
        var now = 0.0
        var sequences = [Int64](repeating: 0, count: 30)
        for _ in 0..<3_000 {
            now += rng.nextUnit() * 5
            let k = Int(rng.next() % 30)
            sequences[k] += 1
            var batch = [reported(k, sequences[k], time: now - rng.nextUnit() * 40, duty: rng.nextUnit() < 0.3 ? .onMission : .onDuty)]
            if sequences[k] > 2 && rng.nextUnit() < 0.2 { batch.append(reported(k, sequences[k] - 2, time: 0)) }  // a stale copy
            try live.ingest(batch, receivedAt: now)
        }
        live.advance(to: now + 500)
        // The same history in one call, as a server ingests a tick's worth of batches.
        var oneCall = ResponderServer(store: MemoryServerStore())
        try oneCall.ingest(live.store.historyByArrival())
        oneCall.advance(to: now + 500)
        #expect(oneCall.prometheusText == live.prometheusText)
        let replayed = ResponderServer<MemoryServerStore>.replaying(live.store.historyByArrival(), until: now + 500)
        #expect(replayed.prometheusText == live.prometheusText)
        for k in 0..<30 { #expect(replayed.liveness.status(of: ResponderID(k)) == live.liveness.status(of: ResponderID(k))) }
    }
}
