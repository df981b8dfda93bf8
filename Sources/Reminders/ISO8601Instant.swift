/// Parses an ISO 8601 UTC instant or one with an offset: `2026-01-05T00:00:00Z`,
/// `2026-01-05T09:00:00+09:00`, `2026-01-05T00:00Z`, fractional seconds allowed
/// (`...00:00.25Z`, any number of digits). Returns Unix seconds, or nil for anything else (no zone designator, a month
/// 13, a February 30...). Foundation-free: days from the civil date by H. Hinnant's algorithm.
public enum ISO8601Instant {
    /// Unix seconds of `text`, nil if it is not such an instant.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ n: Int) -> Int? {
            guard from + n <= b.count else { return nil }
            var v = 0
            for k in from..<(from + n) {
                guard b[k] >= 48, b[k] <= 57 else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            return v
        }
        guard b.count >= 17, let y = digits(0, 4), b[4] == 45, let mo = digits(5, 2), b[7] == 45, let d = digits(8, 2),
            b[10] == 84 || b[10] == 116, let h = digits(11, 2), b[13] == 58, let mi = digits(14, 2)
        else { return nil }
        var k = 16
        var seconds = 0
        var fraction = 0.0
        if k < b.count, b[k] == 58 {
            guard let s = digits(k + 1, 2) else { return nil }
            seconds = s
            k += 3
            if k < b.count, b[k] == 46 {
                // Any number of digits; the first 15 (exact in a Double) make the fraction,
                // one division, so it stays below 1 (a 59.999... second is not a 60th).
                var numerator = 0.0, denominator = 1.0
                k += 1
                let start = k
                while k < b.count, b[k] >= 48, b[k] <= 57 {
                    if k - start < 15 {
                        numerator = numerator * 10 + Double(b[k] - 48)
                        denominator *= 10
                    }
                    k += 1
                }
                guard k > start else { return nil }
                fraction = numerator / denominator
            }
        }
        var offset = 0
        guard k < b.count else { return nil }
        if b[k] == 90 || b[k] == 122 {
            guard k + 1 == b.count else { return nil }
        } else if b[k] == 43 || b[k] == 45 {
            guard k + 6 == b.count, let oh = digits(k + 1, 2), b[k + 3] == 58, let om = digits(k + 4, 2), oh < 24, om < 60 else { return nil }
            offset = (oh * 60 + om) * 60 * (b[k] == 43 ? 1 : -1)
        } else {
            return nil
        }
        let monthDays = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(mo), d >= 1, d <= monthDays[mo - 1], h < 24, mi < 60, seconds < 60 else { return nil }
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + h * 3_600 + mi * 60 + seconds - offset) + fraction
    }
}
