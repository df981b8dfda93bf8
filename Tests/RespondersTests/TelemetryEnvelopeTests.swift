import Testing
@testable import Responders

@Suite struct TelemetryEnvelopeTests {
    @Test func logLineHasEveryFieldAndNoCoordinates() {
        var queue = MemoryQueue()
        queue.append(LocationFix(time: 958, latitude: 60.1699, longitude: 24.9384, accuracy: 7))
        let envelope = TelemetryEnvelope(
            device: DeviceConditions(permission: .whenInUse, powerMode: .lowPower, appState: .foreground),
            queueDepth: queue.depth(), oldestTime: queue.oldestTime(), network: .wifi, now: 1000.5)
        #expect(
            envelope.logLine
                == "permission=when_in_use location_services=on power=low_power app=foreground queue=1 oldest_s=42 network=wifi")
        #expect(!envelope.logLine.contains("60.1699") && !envelope.logLine.contains("24.93"))
        let empty = TelemetryEnvelope(device: DeviceConditions(), queueDepth: 0, oldestTime: nil, network: .none, now: 5)
        #expect(empty.oldestEntryAge == 0)
        #expect(empty.logLine.hasSuffix("queue=0 oldest_s=0 network=none"))
    }

    /// An age no `Int` holds (what a request's `oldest_age_s` may say, up to 1.8e308, or a
    /// decoded envelope's NaN) is written as the number, not trapped on (a fuzzer's finding:
    /// `Int(1e300)` trapped).
    @Test func logLineWritesAnyAge() {
        for (age, text) in [
            (1e300, "1e+300"), (9.3e18, "9.3e+18"), (-1e19, "-1e+19"), (Double.infinity, "inf"), (Double.nan, "nan"),
            (9.2e18, "9200000000000000000"), (-0.5, "-1")
        ] {
            let envelope = TelemetryEnvelope(
                permission: .always, locationServicesEnabled: true, powerMode: .normal, appState: .background,
                queueDepth: 1, oldestEntryAge: age, network: .wifi)
            #expect(envelope.logLine.hasSuffix(" oldest_s=\(text) network=wifi"), "\(envelope.logLine)")
        }
    }

    @Test func trackingSignalFollowsTheRules() {
        let policy = SenderPolicy(network: .wifi, now: 0)
        let ok = DeviceConditions()
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: nil, now: 0) == .green)
        #expect(
            TrackingSignal(
                duty: .offDuty, device: DeviceConditions(permission: .denied), policy: policy,
                oldestQueuedTime: nil, now: 0) == .off)
        for device in [
            DeviceConditions(permission: .denied), DeviceConditions(permission: .notDetermined),
            DeviceConditions(locationServicesEnabled: false), DeviceConditions(permission: .whenInUse, appState: .background)
        ] {
            #expect(TrackingSignal(duty: .onMission, device: device, policy: policy, oldestQueuedTime: nil, now: 0) == .red)
        }
        #expect(
            TrackingSignal(
                duty: .onDuty, device: DeviceConditions(permission: .whenInUse, appState: .foreground),
                policy: policy, oldestQueuedTime: nil, now: 0) == .green)
        #expect(
            TrackingSignal(
                duty: .onDuty, device: DeviceConditions(powerMode: .lowPower), policy: policy,
                oldestQueuedTime: nil, now: 0) == .yellow)
        #expect(
            TrackingSignal(
                duty: .onDuty, device: ok, policy: SenderPolicy(network: .none, now: 0),
                oldestQueuedTime: nil, now: 0) == .yellow)
        var failing = policy
        failing.recordFailure(now: 0)
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: failing, oldestQueuedTime: nil, now: 0) == .yellow)
        // A queued fix as old as the DEGRADED threshold (90 s on duty, 30 s on a mission).
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: 10, now: 99.9) == .green)
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: 10, now: 100) == .yellow)
        #expect(TrackingSignal(duty: .onMission, device: ok, policy: policy, oldestQueuedTime: 10, now: 40) == .yellow)
        #expect(TrackingSignal.red.message == "Location permission required")
    }

    /// The memo's thresholds are feature flags: a fleet may call a responder DEGRADED sooner than
    /// the standard 90 s. The phone's yellow signal ("you may miss assignments") follows the
    /// server's threshold for its fleet, not the standard one.
    @Test func theSignalUsesTheFleetsThreshold() {
        let quick = FleetPolicy(
            onDuty: .init(
                profile: CollectionProfile(interval: 20, distance: 50), thresholds: LivenessThresholds(degradedAfter: 30, offlineAfter: 60)),
            onMission: FleetPolicy.standard.onMission, lowPower: FleetPolicy.standard.lowPower)
        let policy = SenderPolicy(network: .wifi, now: 0, fleet: quick)
        let ok = DeviceConditions()
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: 10, now: 39.9, fleet: quick) == .green)
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: 10, now: 40, fleet: quick) == .yellow)
        #expect(TrackingSignal(duty: .onDuty, device: ok, policy: policy, oldestQueuedTime: 10, now: 40) == .green)  // standard: 90 s
    }

    @Test func profilesMatchTheDutyStates() {
        #expect(CollectionProfile.forDuty(.offDuty, powerMode: .normal) == .none)
        #expect(CollectionProfile.forDuty(.offDuty, powerMode: .lowPower) == .none)
        #expect(CollectionProfile.forDuty(.onDuty, powerMode: .normal) == CollectionProfile(interval: 60, distance: 50))
        #expect(CollectionProfile.forDuty(.onMission, powerMode: .normal) == CollectionProfile(interval: 15, distance: 20))
        #expect(CollectionProfile.forDuty(.onMission, powerMode: .lowPower) == CollectionProfile(interval: 120, distance: 500))
        #expect(!CollectionProfile.none.isCollecting)
        let duty = LivenessThresholds(duty: .onDuty), mission = LivenessThresholds(duty: .onMission)
        #expect([duty.degradedAfter, duty.offlineAfter, mission.degradedAfter, mission.offlineAfter] == [90, 180, 30, 60])
    }
}

@Suite struct TrackingReasonTests {
    func envelope(
        _ permission: PermissionStatus = .always, services: Bool = true, power: PowerMode = .normal,
        app: AppState = .background
    ) -> TelemetryEnvelope {
        TelemetryEnvelope(
            permission: permission, locationServicesEnabled: services, powerMode: power, appState: app,
            queueDepth: 0, oldestEntryAge: 0, network: .wifi)
    }

    @Test func theFirstReasonThatAppliesIsKept() {
        #expect(TrackingReason(envelope()) == TrackingReason.none)
        #expect(TrackingReason(envelope(power: .lowPower)) == .lowPower)
        #expect(TrackingReason(envelope(services: false, power: .lowPower)) == .locationServicesOff)
        #expect(TrackingReason(envelope(.denied, services: false)) == .permissionRevoked)
        #expect(TrackingReason(envelope(.whenInUse, app: .background)) == .permissionRevoked)
        #expect(TrackingReason(envelope(.whenInUse, app: .foreground)) == TrackingReason.none)
        for reason in TrackingReason.allCases { #expect(TrackingReason(name: reason.name) == reason) }
        #expect(TrackingReason(name: "asleep") == nil)
    }

    /// The memo's "UX Signals to Responder", word for word: Green "Location tracking active",
    /// Yellow "Connectivity degraded — you may miss assignments", Red "Location permission
    /// required".
    @Test func theSignalsSayTheMemosWords() {
        #expect(TrackingSignal.green.message == "Location tracking active")
        #expect(TrackingSignal.yellow.message == "Connectivity degraded — you may miss assignments")
        #expect(TrackingSignal.red.message == "Location permission required")
    }
}
