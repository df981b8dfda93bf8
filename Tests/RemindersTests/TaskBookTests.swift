import Geofencing
import Testing
@testable import Reminders

@Suite struct TaskBookTests {
    static func task(_ id: String) -> ReminderTask {
        ReminderTask(id: id, title: "t \(id)", kind: .customPlace, places: [World.gym], placeLabel: "the gym")
    }

    @Test func freeTierLimit() throws {
        var book = TaskBook(tier: .free)
        for k in 0..<3 { try book.add(Self.task("t\(k)")) }
        try book.add(CompletionOfferRule(id: "r", activity: "Gym workout", place: World.gym, placeLabel: "the gym", trigger: .leave))
        #expect(throws: ReminderError.activeTaskLimit(limit: 3, tier: .free)) { try book.add(Self.task("t3")) }
        #expect(ReminderError.activeTaskLimit(limit: 3, tier: .free).description.contains("allows 3 active tasks"))
        try book.setStatus(.completed, of: "t0")
        try book.add(Self.task("t3"))  // a completed task frees its place
        book.tier = .premium
        for k in 4..<20 { try book.add(Self.task("t\(k)")) }
        #expect(book.activeTaskCount == 19)
    }

    /// A task over an existing PlaceTask (as a POI category search makes one) keeps its places
    /// and tiers: two pharmacies, 5/3/1-mile rings each.
    @Test func taskOverAPlaceTask() throws {
        let second = try Place(id: "pharmacy-2", latitude: 40.76, longitude: -73.98)
        let search = PlaceTask(id: "rx-any", kind: .poiCategory, places: [World.pharmacy, second])
        var book = TaskBook(tier: .free)
        try book.add(ReminderTask(title: "pick up prescription", placeTask: search, placeLabel: "a pharmacy"))
        let fences = try book.geofences()
        #expect(fences.count == 6)
        #expect(book.slot(of: "rx-any") == 0)
        #expect(fences.filter { book.binding(ofFence: $0.id)?.isOutermost == true }.map(\.place.id) == ["pharmacy-1", "pharmacy-2"])
    }

    @Test func invalidTasks() {
        var book = TaskBook(tier: .premium)
        #expect(throws: ReminderError.invalidTask(id: "x", message: "the title is empty")) {
            try book.add(ReminderTask(id: "x", title: "", kind: .home, places: [World.home], placeLabel: "Home"))
        }
        #expect(throws: ReminderError.self) {
            try book.add(ReminderTask(id: "y", title: "y", kind: .home, places: [], placeLabel: "Home"))
        }
        #expect(throws: ReminderError.self) {
            try book.add(ReminderTask(id: "z", title: "z", kind: .arriveTrigger, places: [World.home], placeLabel: "Home"))
        }
        #expect(throws: ReminderError.self) {
            try book.add(CompletionOfferRule(id: "r", activity: "a", place: World.gym, placeLabel: "g", radiusMeters: .nan, trigger: .arrive))
        }
        #expect(throws: ReminderError.self) {
            try book.add(CompletionOfferRule(id: "r", activity: "a", place: World.gym, placeLabel: "g", trigger: .arrive, delaySeconds: -1))
        }
        try! book.add(Self.task("dup"))
        #expect(throws: ReminderError.duplicateTaskID("dup")) { try book.add(Self.task("dup")) }
    }

    /// Fences follow edits: a moved place moves every fence that uses it; completing, deleting
    /// or disabling removes an entry's fences from the next plan.
    @Test func fencesFollowEdits() throws {
        var (book, fences) = World.book()
        #expect(fences.count == 7)
        #expect(fences.map(\.id) == Array(0..<7))
        #expect(book.binding(ofFence: 0)?.isOutermost == true)  // the 5-mile ring
        #expect(book.binding(ofFence: 2)?.isOutermost == false)
        #expect(book.binding(ofFence: 5)?.transition == .dwell)
        #expect(book.binding(ofFence: 6)?.transition == .exit)
        #expect(book.binding(ofFence: 6)?.delaySeconds == 300)
        let moved = try Place(id: "gym", latitude: 40.8, longitude: -73.9)
        try book.add(ReminderTask(id: "stretch", title: "stretch", kind: .customPlace, places: [moved], placeLabel: "the gym"))
        #expect(book.updatePlace(moved) == [2, 3])
        fences = try book.geofences()
        #expect(fences.filter { $0.place.id == "gym" }.allSatisfy { $0.place.latitude == 40.8 })
        try book.setStatus(.completed, of: "rx")
        try book.setStatus(.deleted, of: "plants")
        try book.setRuleEnabled(false, id: "gym-offer")
        fences = try book.geofences()
        #expect(Set(fences.map(\.taskID)) == ["stretch"])
        #expect(book.binding(ofFence: 0)?.slot == 3)
        #expect(throws: ReminderError.unknownTask("nope")) { try book.setStatus(.deleted, of: "nope") }
        // A repeating task is never "completed" in the book: done-today lives in the ledger.
        try book.setStatus(.active, of: "plants")
        try book.setStatus(.completed, of: "plants")
        #expect(book.entry(1)?.status == .active)
    }
}
