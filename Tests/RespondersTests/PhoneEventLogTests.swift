import Testing
@testable import Responders

@Suite struct PhoneEventLogTests {
    @Test func batteryThresholdsAndLifecycleChangesAreLoggedOnce() {
        var log = PhoneEventLog()
        var device = DeviceConditions(appState: .foreground)
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 55, now: 0) == 0)  // baseline
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 21, now: 10) == 0)
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 20, now: 20) == 1)
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 19, now: 30) == 0)  // once
        device.appState = .background
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 9.5, now: 40) == 2)
        device.appState = .relaunched
        device.permission = .whenInUse
        #expect(log.observe(device: device, duty: .onMission, network: .cellular, batteryPercent: 50, now: 50) == 4)
        // Charged above 20 % and down again: logged again.
        #expect(log.observe(device: device, duty: .onMission, network: .cellular, batteryPercent: 18, now: 60) == 1)
        #expect(
            log.lines == [
                "t=20 event=battery_low level=20",
                "t=40 event=lifecycle from=foreground to=background",
                "t=40 event=battery_low level=10",
                "t=50 event=duty from=on_duty to=on_mission",
                "t=50 event=permission from=always to=when_in_use",
                "t=50 event=lifecycle from=background to=relaunched",
                "t=50 event=network from=wifi to=cellular",
                "t=60 event=battery_low level=20"
            ])
        #expect(!log.lines.joined().contains("lat"))
    }
}
