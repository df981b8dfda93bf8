import Geodesy

/// The per-fix decision settings of a ``TransitionDetectorConfiguration``, copied out once so the
/// scan reads plain values.
@usableFromInline
struct DecisionRules {
    @usableFromInline let enterNeeded: UInt8
    @usableFromInline let exitNeeded: UInt8
    @usableFromInline let minimumDwell: Double
    @usableFromInline let enterEvidence: Double
    @usableFromInline let enterEvidencePerFix: Double
    @usableFromInline let exitEvidence: Double
    @usableFromInline let exitEvidencePerFix: Double
    @usableFromInline let slowEvidenceCap: Double
    @usableFromInline let slowSpeed: Double
    @usableFromInline let stillSpeed: Double
    @usableFromInline let stillEvidencePerFix: Double

    @usableFromInline
    init(_ c: TransitionDetectorConfiguration) {
        enterNeeded = UInt8(c.enterConfirmations)
        exitNeeded = UInt8(c.exitConfirmations)
        minimumDwell = c.minimumDwellSeconds
        enterEvidence = c.enterEvidence
        enterEvidencePerFix = c.enterEvidencePerFix
        exitEvidence = c.exitEvidence
        exitEvidencePerFix = c.exitEvidencePerFix
        slowEvidenceCap = c.slowEvidenceCapSigmas
        slowSpeed = c.slowSpeedMetersPerSecond
        stillSpeed = c.stillSpeedMetersPerSecond
        stillEvidencePerFix = c.stillEvidencePerFix
    }

    /// The evidence limit of a fix when the device moved at `speed` (m/s) since its previous
    /// accepted fix. Its magnitude is the most evidence, in sigmas, the fix may count for:
    /// `slowEvidenceCapSigmas` below `slowSpeedMetersPerSecond`, else unbounded (infinity). Its
    /// sign bit is set when the fix is still (below `stillSpeedMetersPerSecond`): then the fix
    /// also pays ``stillEvidencePerFix`` (see ``allowance(limit:perFix:)``). One value carries
    /// both so that a fix hands its entries a single number.
    @inline(__always) @usableFromInline
    func evidenceCap(speed: Double) -> Double {
        let cap = speed < slowSpeed ? slowEvidenceCap : .infinity
        return speed < stillSpeed ? -cap : cap
    }

    /// The evidence, in sigmas, a fix with evidence limit `limit` (``evidenceCap(speed:)``)
    /// must exceed to count: `perFix`, plus ``stillEvidencePerFix`` when the fix is still.
    @inline(__always) @usableFromInline
    func allowance(limit: Double, perFix: Double) -> Double {
        limit.sign == .minus ? perFix + stillEvidencePerFix : perFix
    }
}

extension FenceEntry {
    /// Applies one accepted fix to this entry and returns the event it decides, if any (at most
    /// one per fix).
    ///
    /// - Parameters:
    ///   - c2: squared chord from the fix to the fence centre.
    ///   - rc: the fence radius as a chord; `band`: its fixed hysteresis band, chord units.
    ///   - accuracyChord: `accuracyFactor` times the fix's accuracy, chord units.
    ///   - perSigma: chord units to sigmas (one over half the fix's accuracy, at least 0.5 m).
    ///   - evidenceCap: the evidence limit of this fix in the evidence modes
    ///     (``DecisionRules/evidenceCap(speed:)``): its magnitude is the most evidence, in
    ///     sigmas, the fix may count for (infinity for no bound); a set sign bit marks a still
    ///     fix, which also pays ``DecisionRules/stillEvidencePerFix``.
    ///   - time: the fix's time, seconds.
    ///   - dwellSeconds: the fence's dwell time (infinity for none); read only while a dwell is due.
    ///
    /// Invariant the sparse state relies on (see ``TransitionDetector``): an entry with
    /// `pending == 0`, `dwellDone` and a known state is left unchanged by every fix that is not
    /// past the boundary, on the side opposite its state, by more than `band` (outside: unless
    /// `chord < rc - band`; inside: unless `chord > rc + band`). Both rules need at least that
    /// to count a fix as decisive (hysteresis adds the accuracy margin on top; evidence starts
    /// a run only past `rc ∓ band`), the evidence cap and the still allowance only lower a
    /// fix's score, and the dwell is done, so nothing else can change.
    @inline(__always) @usableFromInline
    mutating func observe(c2: Double, rc: Double, band: Double, accuracyChord: Double, perSigma: Double,
                          evidenceCap: Double, time: Double, dwellSeconds: @autoclosure () -> Double,
                          rules: DecisionRules) -> TransitionKind? {
        let margin = band + accuracyChord
        let outer = rc + margin
        let inner = rc - margin
        let inside = inner > 0 && c2 < inner * inner
        let outside = c2 > outer * outer
        switch state {
        case .outside where rules.enterEvidence > 0:
            // CUSUM of the fix's evidence for "inside" (see enterEvidence).
            let inner0 = rc - band
            if pending == 0 && !(inner0 > 0 && c2 < inner0 * inner0) { return nil }
            let z = Swift.min((inner0 - c2.squareRoot()) * perSigma, Swift.abs(evidenceCap))
                - rules.allowance(limit: evidenceCap, perFix: rules.enterEvidencePerFix)
            let score = Swift.max(0, Double(pending) / 8 + z)
            if score >= rules.enterEvidence {
                enter(at: time)
                return .enter
            }
            if pending == 0 { pendingSince = time }
            pending = UInt8(Swift.min(255, score * 8))
            return nil
        case .outside:
            if !inside {
                pending = 0
                return nil
            }
            if pending == 0 { pendingSince = time }
            pending &+= 1
            if pending >= rules.enterNeeded && time - pendingSince >= rules.minimumDwell {
                enter(at: time)
                return .enter
            }
            return nil
        case .inside:
            if rules.exitEvidence > 0 {
                // CUSUM of the fix's evidence for "outside" (see exitEvidence).
                let outer0 = rc + band
                if pending != 0 || c2 > outer0 * outer0 {
                    let z = Swift.min((c2.squareRoot() - outer0) * perSigma, Swift.abs(evidenceCap))
                        - rules.allowance(limit: evidenceCap, perFix: rules.exitEvidencePerFix)
                    let score = Swift.max(0, Double(pending) / 8 + z)
                    if score >= rules.exitEvidence {
                        state = .outside
                        pending = 0
                        return .exit
                    }
                    pending = UInt8(Swift.min(255, score * 8))
                }
            } else if outside {
                pending &+= 1
                if pending >= rules.exitNeeded {
                    state = .outside
                    pending = 0
                    return .exit
                }
            } else {
                pending = 0
            }
            if !dwellDone && time - enteredAt >= dwellSeconds() {
                dwellDone = true
                return .dwell
            }
            return nil
        case .unknown:
            if inside {
                state = .inside
                enteredAt = time
                dwellDone = true  // no entry event, so no dwell event either
            } else if outside {
                state = .outside
            }
            return nil
        }
    }

    /// Moves to `inside` with the dwell clock started at `time`.
    @inline(__always) @usableFromInline
    mutating func enter(at time: Double) {
        state = .inside
        pending = 0
        enteredAt = time
        dwellDone = !hasDwell
    }
}
