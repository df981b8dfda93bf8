import CommandSupport
import Testing

/// The one median the executables use for repeated runs.
@Test func medianOfOddEvenAndEmpty() {
    #expect(ProcessStats.median([3, 1, 2]) == 2)
    #expect(ProcessStats.median([4, 1, 3, 2]) == 2.5)
    #expect(ProcessStats.median([]).isNaN)
}
