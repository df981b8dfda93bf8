import Testing

/// deploy/prometheus: the alert rules pass their unit tests and the configuration is valid.
@Suite struct PromtoolRulesTests {
    @Test func alertRulesPassTheirUnitTestsAndTheConfigIsValid() throws {
        let dir = serverPackage.appendingPathComponent("deploy/prometheus").path
        guard let (code, output) = runTool("promtool", ["test", "rules", dir + "/alerts_test.yml"]) else {
            Issue.record("promtool not installed: the alert rules were not tested")
            return
        }
        #expect(code == 0, "\(output)")
        let (configCode, configOutput) = try #require(runTool("promtool", ["check", "config", dir + "/prometheus.yml"]))
        #expect(configCode == 0, "\(configOutput)")
    }
}
