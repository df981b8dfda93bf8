import Testing
import Reminders

/// The parser of the bench's `--epoch` and the replay's instants: offsets, fractions, leap days; malformed or out-of-range text is nil.
@Test func iso8601Instant() {
    #expect(ISO8601Instant.parse("2026-01-05T00:00:00Z") == 1_767_571_200)
    #expect(ISO8601Instant.parse("2026-01-05T09:00:00+09:00") == 1_767_571_200)
    #expect(ISO8601Instant.parse("2026-01-04T19:00-05:00") == 1_767_571_200)
    #expect(ISO8601Instant.parse("1970-01-01T00:00:00.25Z") == 0.25)
    #expect(ISO8601Instant.parse("2024-02-29T12:00:00Z") == 1_709_208_000)
    for bad in [
        "", "2026-01-05", "2026-01-05T00:00:00", "2026-13-05T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-01-05T24:00:00Z", "2026-01-05T00:00:00Zx", "2026-01-05T00:00:00.Z", "2026-01-05 00:00:00Z"
    ] {
        #expect(ISO8601Instant.parse(bad) == nil, "\(bad)")
    }
}
