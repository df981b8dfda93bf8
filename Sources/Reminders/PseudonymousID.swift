/// A stable pseudonym for a user: `u_` and 16 hex digits of FNV-1a 64 over salt, a 0 byte and
/// the account id. The same (salt, id) always gives the same pseudonym; without the salt it
/// cannot be tied back to the account. Analytics carry only this.
public struct PseudonymousID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `u_` and 16 lower-case hex digits.
    public let value: String

    /// The pseudonym of `accountID` under `salt`.
    public init(accountID: String, salt: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(salt.utf8) + [0] + Array(accountID.utf8) {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        value = "u_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The pseudonym itself.
    public var description: String { value }
}
