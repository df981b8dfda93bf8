import Foundation
import Testing

/// `scripts/trace-flaps-reference` on the repository's traces prints the naive counts that
/// TracesCommandTests (GeofenceBenchTests) pins for `geofence-bench traces`: the two are
/// independent implementations of one definition and must agree.
@Suite(.enabled(if: ScriptSupport.which("python3") != nil, "needs python3"))
struct TraceFlapsReferenceScriptTests {
    @Test func printsTheNaiveCountsOfTheRepositoryTraces() throws {
        let result = try ScriptSupport.run("trace-flaps-reference", [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                fences 768
                kind events visits flaps
                all 3516 1699 20
                car 181 81 9
                hand-held 793 363 11
                vessel 2542 1255 0

                """)
        let help = try ScriptSupport.run("trace-flaps-reference", ["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: scripts/trace-flaps-reference"))
    }
}
