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
    /// `accuracyFactor / R`: the accuracy part of the entry margin, chord units per meter of
    /// accuracy; `exitAccuracyChordPerMeter` that of the exit margin (for the polygon fences'
    /// rules, whose two factors may differ; the circles' detector reads its own copy of the first).
    @usableFromInline let enterAccuracyChordPerMeter: Double, exitAccuracyChordPerMeter: Double

    /// The rules of `c`, its entry and exit margins both `accuracyFactor` times the accuracy
    /// (``polygons(_:)`` gives the polygon fences theirs).
    @usableFromInline
    init(_ c: TransitionDetectorConfiguration, exitAccuracyFactor: Double? = nil) {
        enterAccuracyChordPerMeter = c.accuracyFactor / Earth.meanRadius
        exitAccuracyChordPerMeter = (exitAccuracyFactor ?? c.accuracyFactor) / Earth.meanRadius
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

    /// The rules of the polygon fences of `c` for a fix on the move: the hysteresis rule (no
    /// evidence), with entry and exit margins `polygonEnterAccuracyFactor` and
    /// `polygonExitAccuracyFactor` times the accuracy plus the band, and `c`'s confirmations
    /// and minimum dwell (``PolygonRules`` adds the still fixes' margins).
    @usableFromInline
    static func polygons(_ c: TransitionDetectorConfiguration) -> DecisionRules {
        var h = c
        h.enterEvidence = 0
        h.exitEvidence = 0
        h.accuracyFactor = c.polygonEnterAccuracyFactor
        return DecisionRules(h, exitAccuracyFactor: c.polygonExitAccuracyFactor)
    }

    /// The most evidence, in sigmas, one fix may count for when the device moved at `speed`
    /// (m/s) since its previous accepted fix: `slowEvidenceCapSigmas` below
    /// `slowSpeedMetersPerSecond`, else unbounded (infinity).
    @inline(__always) @usableFromInline
    func evidenceCap(speed: Double) -> Double {
        speed < slowSpeed ? slowEvidenceCap : .infinity
    }

    /// The evidence, in sigmas, a fix must exceed on top of the per-fix allowance when the
    /// device moved at `speed` (m/s) since its previous accepted fix: `stillEvidencePerFix`
    /// below `stillSpeedMetersPerSecond` (a still fix), else 0.
    @inline(__always) @usableFromInline
    func stillAllowance(speed: Double) -> Double {
        speed < stillSpeed ? stillEvidencePerFix : 0
    }
}

/// The decision rules of the polygon fences, read only when a polygon fence is decided: the
/// hysteresis rule of ``DecisionRules/polygons(_:)`` for a fix on the move, and margins of its
/// own for a still fix (slower than `stillSpeedMetersPerSecond` since the device's previous
/// accepted fix).
@usableFromInline
struct PolygonRules {
    /// The hysteresis rule with the polygon margins of a fix on the move.
    @usableFromInline let rules: DecisionRules
    /// `stillSpeedMetersPerSecond`: a fix slower is still.
    @usableFromInline let stillSpeed: Double
    /// `polygonStillEnterAccuracyFactor / R` and `polygonStillExitAccuracyFactor / R`: the
    /// accuracy parts of a still fix's entry and exit margins, chord units per meter.
    @usableFromInline let stillEnterChordPerMeter: Double, stillExitChordPerMeter: Double

    /// The polygon rules of `c`.
    @usableFromInline
    init(_ c: TransitionDetectorConfiguration) {
        rules = .polygons(c)
        stillSpeed = c.stillSpeedMetersPerSecond
        stillEnterChordPerMeter = c.polygonStillEnterAccuracyFactor / Earth.meanRadius
        stillExitChordPerMeter = c.polygonStillExitAccuracyFactor / Earth.meanRadius
    }
}

extension FenceEntry {
    /// ``observe(c2:rc:band:accuracyChord:exitAccuracyChord:perSigma:evidenceCap:stillAllowance:time:dwellSeconds:rules:)``
    /// for a polygon fence: the hysteresis rule of `p.rules`, with the margins of a still fix
    /// (`speed`, m/s since the device's previous accepted fix, below `p.stillSpeed`) or of one
    /// on the move. `accuracy`: the fix's, meters. Keeps `observe`'s invariant (every margin
    /// is the band plus a non-negative multiple of the accuracy).
    @inline(__always) @usableFromInline
    mutating func observePolygon(
        c2: Double, rc: Double, band: Double, accuracy: Double, speed: Double, time: Double,
        dwellSeconds: @autoclosure () -> Double, rules p: PolygonRules
    ) -> TransitionKind? {
        let still = speed < p.stillSpeed
        let enterChord = accuracy * (still ? p.stillEnterChordPerMeter : p.rules.enterAccuracyChordPerMeter)
        let exitChord = accuracy * (still ? p.stillExitChordPerMeter : p.rules.exitAccuracyChordPerMeter)
        return observe(
            c2: c2, rc: rc, band: band, accuracyChord: enterChord, exitAccuracyChord: exitChord, perSigma: 0,
            evidenceCap: .infinity, stillAllowance: 0, time: time, dwellSeconds: dwellSeconds(), rules: p.rules)
    }

    /// Applies one accepted fix to this entry and returns the event it decides, if any (at most
    /// one per fix).
    ///
    /// - Parameters:
    ///   - c2: squared chord from the fix to the fence center.
    ///   - rc: the fence radius as a chord; `band`: its fixed hysteresis band, chord units.
    ///   - accuracyChord: `accuracyFactor` times the fix's accuracy, chord units: the accuracy
    ///     part of the hysteresis margin for an entry; `exitAccuracyChord` the same for an exit
    ///     (the two differ for polygon fences only, ``DecisionRules/polygons(_:)``).
    ///   - perSigma: chord units to sigmas (one over half the fix's accuracy, at least 0.5 m).
    ///   - evidenceCap: the most evidence, in sigmas, this fix may count for in the evidence
    ///     modes (``DecisionRules/evidenceCap(speed:)``; infinity for no bound).
    ///   - stillAllowance: sigmas this fix must exceed on top of the per-fix allowance in the
    ///     evidence modes (``DecisionRules/stillAllowance(speed:)``; 0 unless the fix is still).
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
    mutating func observe(
        c2: Double, rc: Double, band: Double, accuracyChord: Double, exitAccuracyChord: Double, perSigma: Double,
        evidenceCap: Double, stillAllowance: Double, time: Double,
        dwellSeconds: @autoclosure () -> Double,
        rules: DecisionRules
    ) -> TransitionKind? {
        observe(
            c2: c2, chord: c2.squareRoot(), rc: rc, band: band, accuracyChord: accuracyChord,
            exitAccuracyChord: exitAccuracyChord, perSigma: perSigma, evidenceCap: evidenceCap,
            stillAllowance: stillAllowance, time: time, dwellSeconds: dwellSeconds(), rules: rules)
    }

    /// ``observe(c2:rc:band:accuracyChord:exitAccuracyChord:perSigma:evidenceCap:stillAllowance:time:dwellSeconds:rules:)``
    /// with `chord`, `c2.squareRoot()`, given (the caller needs it for the clearance too). The
    /// hysteresis thresholds are computed only in the branches that compare with them.
    @inline(__always) @usableFromInline
    mutating func observe(
        c2: Double, chord c: Double, rc: Double, band: Double, accuracyChord: Double, exitAccuracyChord: Double,
        perSigma: Double, evidenceCap: Double, stillAllowance: Double, time: Double,
        dwellSeconds: @autoclosure () -> Double,
        rules: DecisionRules
    ) -> TransitionKind? {
        switch state {
        case .outside where rules.enterEvidence > 0:
            // CUSUM of the fix's evidence for "inside" (see enterEvidence).
            let inner0 = rc - band
            if pending == 0 && !(inner0 > 0 && c2 < inner0 * inner0) { return nil }
            let z =
                Swift.min((inner0 - c) * perSigma, evidenceCap)
                - (rules.enterEvidencePerFix + stillAllowance)
            let score = Swift.max(0, Double(pending) / 8 + z)
            if score >= rules.enterEvidence {
                enter(at: time)
                return .enter
            }
            if pending == 0 { pendingSince = time }
            pending = UInt8(Swift.min(255, score * 8))
            return nil
        case .outside:
            let inner = rc - band - accuracyChord
            if !(inner > 0 && c2 < inner * inner) {
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
                    let z =
                        Swift.min((c - outer0) * perSigma, evidenceCap)
                        - (rules.exitEvidencePerFix + stillAllowance)
                    let score = Swift.max(0, Double(pending) / 8 + z)
                    if score >= rules.exitEvidence {
                        state = .outside
                        pending = 0
                        return .exit
                    }
                    pending = UInt8(Swift.min(255, score * 8))
                }
            } else if case let outer = rc + band + exitAccuracyChord, c2 > outer * outer {
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
            let outer = rc + band + exitAccuracyChord
            let inner = rc - band - accuracyChord
            if inner > 0 && c2 < inner * inner {
                state = .inside
                enteredAt = time
                dwellDone = true  // no entry event, so no dwell event either
            } else if c2 > outer * outer {
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
