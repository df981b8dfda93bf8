import CommandSupport
import ResponderStore
import Responders

/// `geofence responders metrics --db FILE [--now SECONDS]`: the Prometheus text of a responder
/// server store, rebuilt by replaying its history (``ResponderServer/replaying(_:until:rules:)``).
struct RespondersCommand: Subcommand {
    static let name = "responders"
    static let abstract = "Responder server store: Prometheus metrics."
    static let help = """
        USAGE: geofence responders metrics --db FILE [--now SECONDS]

        Prints the metrics of a responder server store in the Prometheus text exposition format
        (responders_by_status, location_update_delay_seconds, status_transitions_total). FILE is
        an SQLite store written by ResponderStore's SQLiteServerStore (for example by
        `geofence-bench responders --db FILE`); it is opened read-only. The stored fixes are
        replayed through the liveness rules at their arrival times up to --now (seconds on the
        store's clock; default: the latest arrival in the store), then the deadlines run to it.
        A file that is missing, not SQLite, corrupt or not a responder store is reported as
        FILE: message on standard error with exit status 1.

        OPTIONS:
          --db FILE       The server store.
          --now SECONDS   The time of the snapshot (a number; default: the latest arrival).
          -h, --help      Show this help.

        """

    static let options: [Arguments.Option] = [.value("db"), .value("now")]
    /// The action word.
    static let maxPositionals = 1

    let path: String
    let now: Double?

    init(arguments: Arguments) throws(UsageError) {
        guard let action = arguments.positionals.first else { throw UsageError("expected an action: metrics") }
        guard action == "metrics" else { throw UsageError("unknown action '\(action)' (expected metrics)") }
        path = try arguments.required("db")
        now = try arguments.double("now", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }

    func validate() throws(UsageError) {}

    func run(_ io: ToolIO) -> Int32 {
        do throws(ResponderStoreError) {
            let store = try SQLiteServerStore(path: path, readOnly: true)
            let history = try store.historyByArrival()
            let until = now ?? history.last?.receivedAt ?? 0
            let server = ResponderServer<MemoryServerStore>.replaying(history, until: until)
            io.output.writeRaw(server.prometheusText)
            io.flush()
            return ExitStatus.success
        } catch {
            io.report(error.description)
            io.flush()
            return ExitStatus.failure
        }
    }
}
