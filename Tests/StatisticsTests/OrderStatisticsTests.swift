import Statistics
import Testing

/// The one median: the middle value, the mean of the two middle ones for an even count, NaN for
/// none; any input order.
@Test func medianOfOddEvenAndEmpty() {
    #expect(OrderStatistics.median([3, 1, 2]) == 2)
    #expect(OrderStatistics.median([4, 1, 3, 2]) == 2.5)
    #expect(OrderStatistics.median([7]) == 7)
    #expect(OrderStatistics.median([]).isNaN)
}

/// Nearest rank: the value at rank ceil(q n), clamped to the ends.
@Test func nearestRankPercentiles() {
    let sorted: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    #expect(OrderStatistics.percentile(sorted: sorted, 0.5) == 5)
    #expect(OrderStatistics.percentile(sorted: sorted, 0.95) == 10)
    #expect(OrderStatistics.percentile(sorted: sorted, 0.51) == 6)
    #expect(OrderStatistics.percentile(sorted: sorted, 0) == 1)
    #expect(OrderStatistics.percentile(sorted: sorted, 1) == 10)
    #expect(OrderStatistics.percentile(sorted: [4], 0.5) == 4)
}
