import JSON
import CommandSupport
import Foundation
import Reminders

/// `geofence reminders replay SCENARIO.json`: a scripted day through the real reminder policies,
/// one JSON line per decision, then a summary line (``ReminderReplay``; format in
/// docs/REMINDERS.md).
struct RemindersCommand: Subcommand {
    static let name = "reminders"
    static let abstract = "Reminders: replay a scripted day through the product policies."
    static let help = """
        USAGE: geofence reminders replay SCENARIO.json

        Replays a scenario (a product: near_me, kwilt or airfit; its tasks, preferences and a
        day of events) through the reminder engine and prints one JSON line per decision in time
        order ({"at", "task", "kind", "decision", "channel", "reason", "title", "body",
        "category", "actions", "local_date"}), then one summary line ({"summary": true,
        "registered_fences", "analytics"}). The format is in docs/REMINDERS.md. A scenario that
        cannot be read or is malformed is reported as FILE: JSON.PATH: message on standard error
        (for example events[3].at) with exit status 1.

        OPTIONS:
          -h, --help  Show this help.

        """

    static let options: [Arguments.Option] = []
    /// The action word and the file.
    static let maxPositionals = 2

    let path: String

    init(arguments: Arguments) throws(UsageError) {
        guard let action = arguments.positionals.first else { throw UsageError("expected an action: replay") }
        guard action == "replay" else { throw UsageError("unknown action '\(action)' (expected replay)") }
        guard arguments.positionals.count == 2 else { throw UsageError("expected a scenario file: reminders replay SCENARIO.json") }
        path = arguments.positionals[1]
    }

    func validate() throws(UsageError) {}

    func run(_ io: ToolIO) -> Int32 {
        let data: Data
        do throws(TextFile.ReadError) {
            data = try TextFile.read(path)  // a regular file of at most 64 MiB: not /dev/zero, not a 1 GiB file read whole
        } catch {
            io.report(error.description)
            io.flush()
            return ExitStatus.failure
        }
        let output: ReminderReplay.Output
        do throws(ReminderScenario.Error) {
            output = try ReminderReplay.run(try ReminderScenario.parse(data))
        } catch {
            io.report("\(path): \(error.description)")
            io.flush()
            return ExitStatus.failure
        }
        var converter = LocalTimeConverter(timeZone: output.timeZone)
        func optional(_ o: inout JSONObject, _ key: String, _ value: String?) {
            if let value { o.set(key, value) } else { o.setNull(key) }
        }
        for line in output.lines {
            var o = JSONObject()
            o.set("at", ReminderReplay.isoString(line.at, converter: &converter))
            optional(&o, "task", line.task)
            o.set("kind", line.kind)
            o.set("decision", line.decision)
            optional(&o, "channel", line.channel)
            optional(&o, "reason", line.reason)
            optional(&o, "title", line.title)
            optional(&o, "body", line.body)
            optional(&o, "category", line.category)
            if let actions = line.actions { o.set("actions", array: actions.map(JSONObject.string)) } else { o.setNull("actions") }
            o.set("local_date", line.localDate)
            if line.items > 1 { o.set("items", line.items) }
            io.output.writeRaw(o.text + "\n")
        }
        var summary = JSONObject()
        summary.set("summary", true)
        summary.set("registered_fences", array: output.registeredFences.map(JSONObject.string))
        summary.set(
            "analytics",
            array: output.analytics.map { e in
                var a = JSONObject()
                a.set("name", e.name)
                a.set("at", ReminderReplay.isoString(e.time, converter: &converter))
                var p = JSONObject()
                for key in e.properties.keys.sorted() { p.set(key, e.properties[key]!) }
                a.set("properties", object: p)
                return a.text
            })
        io.output.writeRaw(summary.text + "\n")
        io.flush()
        return ExitStatus.success
    }
}
