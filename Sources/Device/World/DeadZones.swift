import Foundation
import SimCore
import Traces

/// Dead zones: periods where the device shows a network (Wi-Fi joined or
/// cellular attached) but nothing gets through — weak signal at the edge of
/// a cell, a congested cell, a captive portal. An alternating renewal
/// process per device over the run, gap then dead zone then gap …, that
/// applies to whichever network the device is on (Docs/Semantics.md, "Dead
/// zones"). Part of ``DeviceConfiguration`` (JSON key `deadZones`); off
/// unless `perDay` is above 0.
///
/// Why a renewal process with log-normal durations, as for backend
/// outages: dead zones are short, unequal episodes; exponential gaps (a
/// Poisson process of starts) are the usual availability-model assumption.
/// The one measured scale found: of connections to 5 mobile broadband
/// networks measured over 10 months, "more than 20% of connections from
/// stationary nodes are unavailable more than 10 minutes per day"
/// (Baltrunas, Elmokashfi, Kvalbein, "Measuring the Reliability of Mobile
/// Broadband Networks", IMC 2014, abstract). The rate and durations are
/// assumptions scaled to that figure, not fits; no per-network split is
/// modelled (that study measured cellular only, and no Wi-Fi figure was
/// found).
public struct DeadZoneModel: DeclaredParameters, Hashable {
    /// Dead-zone starts per day outside dead zones (the rate of the
    /// exponential gap). Per day, in [0, 96]; default 0 (off). Assumption.
    public var perDay: Double = 0
    /// Median dead-zone duration (log-normal). Duration in [1 s, 1 day];
    /// default 5 min (assumption).
    public var medianDuration: SimDuration = .minutes(5)
    /// σ of the log of the duration. In [0, 3]; default 1 (the middle 68 %
    /// last between median/e and median·e, about 1.8 to 13.6 min at the
    /// default median). Assumption.
    public var durationSigma: Double = 1
    /// How long a request waits for a first byte before it times out: a
    /// networked run that starts in a dead zone keeps the radio active for
    /// this long (after any promotion), then fails — or is expired by its
    /// budget first, when the budget is shorter. Duration in [1 s, 600 s];
    /// default 60 s: Apple's default `URLSessionConfiguration.
    /// timeoutIntervalForRequest` ("The default value is `60`").
    public var requestTimeout: SimDuration = .seconds(60 as Int64)
    /// The longest a dead zone lasts: a longer draw is cut to it (a phone
    /// that gives up on a dead network and reattaches, or a study that
    /// bounds outages). Duration in [1 s, 1 day]; default none (nil: only
    /// the process's 7-day cap). Assumption.
    public var maxDuration: SimDuration? = nil

    public init() {}

    /// The JSON keys under `device.deadZones` (Docs/Semantics.md, "Dead
    /// zones"). The rate is capped at 96 a day (one every quarter hour
    /// outside zones): beyond that the device is rarely connected and the
    /// feature stops being a burst model. The timeout is capped at 10 min,
    /// past any budget of an app refresh.
    public static let parameters: [Parameter<DeadZoneModel>] = [
        .real("perDay", \.perDay, ValueRange(0, 96, unit: "/day"), source: "assumption (0: off)"),
        .duration("medianDuration", \.medianDuration, .seconds(1, 86_400), source: "assumption"),
        .real("durationSigma", \.durationSigma, ValueRange(0, 3), source: "assumption"),
        .duration("requestTimeout", \.requestTimeout, .seconds(1, 600),
                  source: "Apple, URLSessionConfiguration.timeoutIntervalForRequest (default 60)"),
        .duration("maxDuration", \.maxDuration, .seconds(1, 86_400), source: "assumption (null: no cap)"),
    ]

    /// Whether any dead zone can happen.
    public var isOn: Bool { perDay > 0 }
}

/// One device's dead zones, drawn at the simulator's start from the
/// device's keyed randomness: the k-th gap from `RandomPurpose.deadZoneGap`
/// (0, k), the k-th duration from `RandomPurpose.deadZoneDuration` (0, k).
/// So a dead zone is the same event under every policy (common random
/// numbers), and no existing stream is consumed.
///
/// A component registered with the loop (``RegisteredMechanisms``, last in
/// its tie order): its events are the zones' starts and ends. Decides:
/// whether the network in use carries nothing at a time (`isDead(at:)`);
/// raises: a dead zone's start (a transfer in flight fails, as on a
/// connection loss) and end (logged only). The device state does not
/// change (the OS still shows the network), so the policy is not told.
struct DeadZones: DeviceMechanism {
    let zones: TimeIntervals
    /// The request timeout (``DeadZoneModel/requestTimeout``).
    let requestTimeout: SimDuration
    /// Index of the next boundary: 2k is the start of zone k, 2k+1 its end.
    private(set) var nextBoundary = 0
    private(set) var nextEventTime = SimTime.farFuture

    /// nil when the model is off (no zone can happen).
    init?(model: DeadZoneModel, horizon: SimTime, random: DeviceRandom) {
        guard model.isOn else { return nil }
        zones = TimeIntervals.alternatingRenewal(
            perDay: model.perDay, medianDuration: model.medianDuration, durationSigma: model.durationSigma,
            maxDuration: model.maxDuration, horizon: horizon,
            gapUniform: { random.uniform(RandomPurpose.deadZoneGap.rawValue, 0, $0) },
            durationUniform: { random.uniform(RandomPurpose.deadZoneDuration.rawValue, 0, $0) })
        requestTimeout = model.requestTimeout
        boundaryMoved()
    }

    /// Whether `t` falls in a dead zone.
    @inline(__always)
    func isDead(at t: SimTime) -> Bool { zones.contains(t) }

    /// Whether the next boundary is a zone's start (else its end).
    var nextIsStart: Bool { nextBoundary % 2 == 0 }

    /// The boundary due now was handled: the next one follows.
    mutating func advance() {
        nextBoundary += 1
        boundaryMoved()
    }

    private mutating func boundaryMoved() {
        let k = nextBoundary / 2
        if k >= zones.starts.count { nextEventTime = .farFuture; return }
        nextEventTime = nextBoundary % 2 == 0 ? zones.starts[k] : zones.ends[k]
    }

    /// The total dead time before `horizon` (for tests and docs).
    func deadTime(before horizon: SimTime) -> SimDuration { zones.total(before: horizon) }
}
