import Traces

/// The `traces` key of a spec: a trace set directory, and which of its
/// streams the generators synthesise (Docs/ExperimentSpec.md, "Trace-set
/// worlds"). Either a string (the directory; nothing synthesised) or
/// `{"path": ..., "synthesise": [...], "generator": {...}, "measuredBattery": false}`.
public struct TraceSynthesisSpec: Sendable, Equatable {
    /// The streams drawn by the generators, in `TraceStream` order.
    public var streams: [TraceStream]
    /// The generators' parameters (`GeneratorParameters`, default if absent).
    public var parameters: GeneratorParameters

    static let keys = ["path", "synthesise", "generator", "measuredBattery"]

    /// The directory as written, the synthesis (nil when nothing is
    /// synthesised) and whether the measured battery level drives the
    /// simulated one. Errors name the JSON path under `$.traces`.
    static func parse(_ node: JSONNode) throws(SpecError) -> (directory: String, synthesis: TraceSynthesisSpec?, measuredBattery: Bool) {
        if case .string = node.value {
            let directory = try node.string()
            guard !directory.isEmpty else { throw node.error("expected a trace set directory, found an empty string") }
            return (directory, nil, false)
        }
        guard case .object = node.value else {
            throw node.error("expected a trace set directory (a string) or {\"path\": ..., \"synthesise\": [...], \"generator\": {...}}, found \(node.value.typeName)")
        }
        let f = try node.object(knownKeys: keys)
        guard let pathNode = f["path"] else { throw node.error("required key \"path\" (the trace set directory) is missing") }
        let directory = try pathNode.string()
        guard !directory.isEmpty else { throw pathNode.error("expected a trace set directory, found an empty string") }
        let measuredBattery = try f["measuredBattery"]?.bool() ?? false
        var streams: [TraceStream] = []
        if let list = f["synthesise"] {
            for item in try list.array() {
                let name = try item.string()
                guard let stream = TraceStream(rawValue: name) else {
                    throw item.error("unknown stream \"\(name)\"; the generators synthesise \(TraceStream.allCases.map(\.rawValue).joined(separator: ", ")) (the sessions come from the trace set)")
                }
                guard !streams.contains(stream) else { throw item.error("stream \"\(name)\" is listed twice") }
                streams.append(stream)
            }
        }
        guard let generator = f["generator"] else {
            return (directory, streams.isEmpty ? nil : TraceSynthesisSpec(streams: streams.sorted(), parameters: .default), measuredBattery)
        }
        guard !streams.isEmpty else {
            throw generator.error("the generator only synthesises streams; list them in \"synthesise\" (\(TraceStream.allCases.map(\.rawValue).joined(separator: ", "))) or remove \"generator\"")
        }
        let parameters = try CodableFromJSON.decode(GeneratorParameters.self, from: generator)
        try parameters.checkDeclaredRanges(at: generator.path)
        return (directory, TraceSynthesisSpec(streams: streams.sorted(), parameters: parameters), measuredBattery)
    }

    /// `measuredBattery` needs the set's battery_level.csv and its own
    /// charging intervals (synthesised ones would contradict the readings).
    /// Run by `validate` and `run` alike, beside `checkCovers`.
    static func checkMeasuredBattery(_ set: TraceSetHeader, spec: ExperimentSpec) throws(SpecError) {
        guard spec.measuredBattery else { return }
        guard set.hasBatteryLevel else {
            throw SpecError(file: spec.file, path: "$.traces.measuredBattery",
                            message: "the trace set has no battery_level.csv (measured levels come from an import of real data, e.g. traces import --format aware); remove \"measuredBattery\" or set it to false")
        }
        if spec.traceSynthesis?.streams.contains(.power) == true {
            throw SpecError(file: spec.file, path: "$.traces.measuredBattery",
                            message: "the measured battery level needs the set's own charging intervals; do not synthesise \"power\" with \"measuredBattery\": true")
        }
    }

    /// Every stream the set lacks must be synthesised: a world without
    /// network intervals or power constants cannot be simulated. Run by
    /// `validate` and `run` alike (`WorldChecks`) and by the `Runner`.
    static func checkCovers(_ set: TraceSetHeader, synthesis: TraceSynthesisSpec?, file: String?) throws(SpecError) {
        // Without users.csv the power files are absent too (the reader's rule).
        let uncovered = set.missingStreams.subtracting(synthesis?.streams ?? []).sorted()
        guard !uncovered.isEmpty else { return }
        let what = uncovered.map { "\($0.rawValue) (\($0.files.joined(separator: ", ")))" }
        let all = Set(synthesis?.streams ?? []).union(uncovered).sorted().map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        throw SpecError(file: file, path: synthesis == nil ? "$.traces" : "$.traces.synthesise",
                        message: "the trace set lacks \(what.joined(separator: "; ")); have the generators synthesise it: \"traces\": {\"path\": ..., \"synthesise\": [\(all)]}")
    }
}
