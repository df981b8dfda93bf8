import Geodesy
import SpatialIndex

extension PlanScoring {
    /// The app's wake-time check (see "Wake-time check" in ``PlanScoring``): which fences it
    /// believes the device is in, updated from one noisy fix per wake.
    ///
    /// A fence the app does not believe it is in fires (and is believed from then on) when the
    /// fix is at least `entryGate × accuracy` inside it; a believed fence is dropped when the
    /// fix is at least `exitGate × accuracy` outside it. Gates are in units of the fix's
    /// reported accuracy (meters); 0 and 0 is the plain check: fire what the fix is inside and
    /// the previous fix was not.
    public struct WakeCheck: Sendable {
        /// Entry gate, in units of the fix's accuracy (>= 0; 0: any fix inside fires).
        public var entryGate: Double
        /// Exit gate, in units of the fix's accuracy (>= 0; 0: any fix outside drops the belief).
        public var exitGate: Double
        /// Fence ids the app believes the device is in.
        public private(set) var believedInside: Set<Int32> = []

        /// A check with the given gates that believes the device is in no fence.
        public init(entryGate: Double, exitGate: Double) {
            self.entryGate = entryGate
            self.exitGate = exitGate
        }

        /// Evaluates the fix `p` (reported accuracy `accuracyMeters`), given the ids of every
        /// fence containing it (`inside`, any order) and a lookup of fences by id. Replaces
        /// `fired` with the fences that fire now, ascending. Returns true when a fence contains
        /// the fix but not by the entry gate and is not believed (an app would take another fix).
        public mutating func check(
            _ p: UnitVector, accuracyMeters: Double, inside: [Int32], fence: (Int32) -> Fence,
            fired: inout [Int32]
        ) -> Bool {
            fired.removeAll(keepingCapacity: true)
            let gate = entryGate * accuracyMeters
            var unsure = false
            for id in inside where !believedInside.contains(id) {
                let f = fence(id)
                guard gate == 0 || distance(p, f.centerVector) <= f.radiusMeters - gate else {
                    unsure = true
                    continue
                }
                fired.append(id)
            }
            fired.sort()
            let exit = exitGate * accuracyMeters
            let insideSet = Set(inside)
            believedInside = believedInside.filter { id in
                if insideSet.contains(id) { return true }
                guard exit > 0 else { return false }
                let f = fence(id)
                return distance(p, f.centerVector) < f.radiusMeters + exit
            }
            believedInside.formUnion(fired)
            return unsure
        }
    }
}
