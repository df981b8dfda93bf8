/// Why a reminder operation was refused. Every case names what was wrong; nothing is dropped
/// silently.
public enum ReminderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A preference out of range; `field` is its name (`daily_cap`, `quiet_start`, `time_zone`...).
    case invalidPreference(field: String, message: String)
    /// Adding an active task past the tier's limit (free: 3).
    case activeTaskLimit(limit: Int, tier: SubscriptionTier)
    /// A task or rule id that is already in the book.
    case duplicateTaskID(String)
    /// An id the book does not know.
    case unknownTask(String)
    /// A task definition that cannot make fences (empty title, bad place count, bad radius...).
    case invalidTask(id: String, message: String)
    /// An action identifier the router does not know.
    case unknownAction(String)
    /// An action that needs a task id in the notification's user info, which had none.
    case missingTaskID(action: String)

    /// What went wrong, in words for a log or an error message.
    public var description: String {
        switch self {
        case let .invalidPreference(field, message): return "preference \(field): \(message)"
        case let .activeTaskLimit(limit, tier):
            return "the \(tier.rawValue) tier allows \(limit) active tasks; complete or delete one first, or upgrade to premium"
        case let .duplicateTaskID(id): return "a task with id '\(id)' already exists"
        case let .unknownTask(id): return "no task with id '\(id)'"
        case let .invalidTask(id, message): return "task '\(id)': \(message)"
        case let .unknownAction(id): return "unknown notification action '\(id)'"
        case let .missingTaskID(action): return "action '\(action)' needs a task id in the notification's user info"
        }
    }
}
