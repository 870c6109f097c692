import Traces
import Foundation
import Policies
import SimCore

/// What the `external` configurations of a spec ran: per configuration, the
/// argv, a SHA-256 of every argv element that names an existing regular
/// file (the script, a model file, ...) and, for a known interpreter, what
/// its `--version` says. Recorded as `decision_processes` in
/// `manifest.json` and `shard.json` (absent when the spec has no
/// `external` configuration): the spec names a command, this says what
/// the command ran, so two shards made with two versions of a script do
/// not merge (Docs/ExternalPolicyProtocol.md, "Provenance").
public struct DecisionProcessProvenance: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Index of the argv element.
        public var argument: Int
        public var path: String
        public var sha256: String
    }

    public struct Entry: Sendable, Equatable {
        /// The configuration's label.
        public var configuration: String
        /// JSON path of the command in the spec, e.g. `$.policies[1].params.command`.
        public var path: String
        public var argv: [String]
        public var files: [File]
        /// First line of `argv[0] --version` for a known interpreter; nil otherwise.
        public var interpreterVersion: String?
    }

    public var entries: [Entry]

    /// Interpreters whose `--version` is cheap and side-effect free; any
    /// other `argv[0]` (a compiled policy of the researcher's own) is never
    /// run for a version: it might not know the flag and wait on stdin.
    static let interpreters: Set<String> = ["python", "python3", "pypy", "pypy3", "node", "ruby", "perl", "Rscript", "julia"]

    /// Every `external` policy (also as a wrapper's base) of every configuration.
    static func commands(of spec: ExperimentSpec) -> [(configuration: String, path: String, argv: [String], timeout: String?)] {
        var out: [(String, String, [String], String?)] = []
        func walk(_ policy: JSONValue, path: String, label: String) {
            if case .string("external")? = policy["name"], case let .array(items)? = policy["params"]?["command"] {
                let argv = items.compactMap { v -> String? in if case let .string(s) = v { s } else { nil } }
                var timeout: String? = nil
                if case let .string(t)? = policy["params"]?["timeout"] { timeout = t }
                out.append((label, path + ".params.command", argv, timeout))
            }
            if let base = policy["base"] { walk(base, path: path + ".base", label: label) }
        }
        for c in spec.configurations { walk(c.policy, path: c.path, label: c.label) }
        return out
    }

    /// The record of `spec`'s decision processes now (files hashed as they
    /// are at this moment); nil when it has no `external` configuration.
    public static func of(_ spec: ExperimentSpec) throws(InputFileError) -> DecisionProcessProvenance? {
        let commands = commands(of: spec)
        guard !commands.isEmpty else { return nil }
        var versions: [String: String?] = [:]
        var entries: [Entry] = []
        for c in commands {
            var files: [File] = []
            for (i, a) in c.argv.enumerated() where isRegularFile(a) {
                files.append(File(argument: i, path: a, sha256: try sha256(ofFile: a)))
            }
            var version: String? = nil
            if let program = c.argv.first, interpreters.contains((program as NSString).lastPathComponent) {
                if let known = versions[program] { version = known } else {
                    version = interpreterVersion(program)
                    versions[program] = version
                }
            }
            entries.append(Entry(configuration: c.configuration, path: c.path, argv: c.argv, files: files,
                                 interpreterVersion: version))
        }
        return DecisionProcessProvenance(entries: entries)
    }

    /// SHA-256 of a file's bytes (any file: a script, a compiled policy, a
    /// model; not only UTF-8 text), read in blocks as a shard's CSVs are.
    static func sha256(ofFile path: String) throws(InputFileError) -> String {
        try FileDigest.of(path: path).sha256
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return !path.isEmpty && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// First non-empty line `program --version` writes (stdout or stderr:
    /// Python 2 wrote it on stderr), or nil if it cannot be run or says nothing.
    static func interpreterVersion(_ program: String) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [program, "--version"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map { String($0.prefix(200)) }
    }

    // MARK: JSON (`decision_processes`)

    func json() -> JSONValue {
        .array(entries.map { e in
            .object([
                ("configuration", .string(e.configuration)),
                ("path", .string(e.path)),
                ("argv", .array(e.argv.map { .string($0) })),
                ("files", .array(e.files.map { f in
                    .object([("argument", .number(Double(f.argument))), ("path", .string(f.path)), ("sha256", .string(f.sha256))])
                })),
                ("interpreter_version", e.interpreterVersion.map { .string($0) } ?? .null),
            ])
        })
    }

    /// From a manifest or marker; nil when it has no `decision_processes`.
    /// Throws (with the JSON path) on a malformed record.
    static func read(_ node: JSONNode?) throws(SpecError) -> DecisionProcessProvenance? {
        guard let node else { return nil }
        var entries: [Entry] = []
        for e in try node.array() {
            let f = try e.object(knownKeys: ["configuration", "path", "argv", "files", "interpreter_version"])
            func need(_ k: String) throws(SpecError) -> JSONNode {
                guard let v = f[k] else { throw e.error("missing \"\(k)\"") }
                return v
            }
            var argv: [String] = []
            for a in try need("argv").array() { argv.append(try a.string()) }
            var files: [File] = []
            for file in try need("files").array() {
                let g = try file.object(knownKeys: ["argument", "path", "sha256"])
                guard let argument = g["argument"], let path = g["path"], let sha = g["sha256"] else {
                    throw file.error("expected \"argument\", \"path\" and \"sha256\"")
                }
                files.append(File(argument: try argument.int(in: 0...Int.max), path: try path.string(), sha256: try sha.string()))
            }
            var version: String? = nil
            if let v = f["interpreter_version"], v.value != .null { version = try v.string() }
            entries.append(Entry(configuration: try need("configuration").string(), path: try need("path").string(),
                                 argv: argv, files: files, interpreterVersion: version))
        }
        return DecisionProcessProvenance(entries: entries)
    }

    /// Why `a` (from `aSource`) and `b` (from `bSource`) are not the same
    /// decision processes, naming both; nil when they are.
    static func mismatch(_ a: DecisionProcessProvenance?, _ aSource: String,
                         _ b: DecisionProcessProvenance?, _ bSource: String) -> String? {
        let x = a?.entries ?? [], y = b?.entries ?? []
        if x == y { return nil }
        for (p, q) in zip(x, y) where p != q {
            let what = "configuration \"\(p.configuration)\" (\(p.path))"
            if p.argv != q.argv {
                return "\(what) ran \(show(p.argv)) in \(aSource) but \(show(q.argv)) in \(bSource)"
            }
            for (f, g) in zip(p.files, q.files) where f != g {
                return "\(what): \(f.path) (argv[\(f.argument)]) had SHA-256 \(f.sha256.prefix(16))… in \(aSource) but \(g.path) (argv[\(g.argument)]) had \(g.sha256.prefix(16))… in \(bSource)"
            }
            if p.files.count != q.files.count {
                return "\(what): \(aSource) hashed \(p.files.map(\.path)) but \(bSource) \(q.files.map(\.path)) (a file of the command was missing in one)"
            }
            if p.interpreterVersion != q.interpreterVersion {
                return "\(what): the interpreter was \(p.interpreterVersion ?? "of unknown version") in \(aSource) but \(q.interpreterVersion ?? "of unknown version") in \(bSource)"
            }
            return "\(what) differs between \(aSource) and \(bSource)"
        }
        return "\(aSource) records \(x.count) decision process(es), \(bSource) \(y.count)"
    }

    /// Why `recorded` (a manifest's) does not describe `spec`'s `external`
    /// commands (the same configurations, paths and argv, in order); nil
    /// when it does. A manifest without the record (no external
    /// configuration, or an older bgbench) is accepted.
    static func disagreement(_ recorded: DecisionProcessProvenance?, with spec: ExperimentSpec) -> String? {
        guard let recorded else { return nil }
        let expected = commands(of: spec)
        let got = recorded.entries.map { ($0.configuration, $0.path, $0.argv) }
        guard got.count == expected.count else {
            return "its decision_processes lists \(got.count) external command(s) but its spec has \(expected.count)"
        }
        for (g, e) in zip(got, expected) where g.0 != e.configuration || g.1 != e.path || g.2 != e.argv {
            return "its decision_processes records \(show(g.2)) for configuration \"\(g.0)\" (\(g.1)) but its spec runs \(show(e.argv)) for \"\(e.configuration)\" (\(e.path))"
        }
        return nil
    }

    static func show(_ argv: [String]) -> String { argv.map { JSONText.quote($0) }.joined(separator: " ") }

    /// Starts each decision process of `spec` once (`hello`, `bye`): a
    /// command that cannot start, a missing script, another protocol
    /// version is an error naming `$.policies[i].params.command`, before
    /// anything is simulated. `validate` and `run` both call it.
    static func checkHandshakes(_ spec: ExperimentSpec) throws(SpecError) {
        var checked: Set<[String]> = []
        for c in commands(of: spec) where !checked.contains(c.argv) {
            checked.insert(c.argv)
            var timeout = Duration.seconds(10)
            if let t = c.timeout, let d = try? SimDuration(parsing: t) { timeout = .microseconds(d.microseconds) }
            if let problem = DecisionProcessCheck.handshake(command: c.argv, timeout: timeout) {
                var e = SpecError(path: c.path, message: "the decision process \(show(c.argv)) \(problem), in reply to the \"hello\" message it is sent once before the run (a missing script, a command not on PATH, or a process that does not speak protocol version \(DecisionProcessCheck.protocolVersion))")
                e.file = spec.file
                throw e
            }
        }
    }
}
