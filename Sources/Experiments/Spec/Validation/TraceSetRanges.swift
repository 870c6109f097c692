import Traces

/// Ranges of the per-user values of a trace set (`users.csv`), checked after
/// the reader's own format checks, with the same bounds as the generator
/// parameters that produce them. Errors name the file and the user id.
public enum TraceSetRanges {
    public static let profile: [RangeRule<UserProfile>] = [
        RangeRule("meanSessionsPerDay", ValueRange(0, 10_000, unit: "1/day")) { $0.meanSessionsPerDay },
        RangeRule("screenOnDrainWatts", ValueRange(0, 100, unit: "W")) { $0.screenOnDrainWatts },
        RangeRule("idleDrainWatts", ValueRange(0, 100, unit: "W")) { $0.idleDrainWatts },
        RangeRule("chargingWatts", ValueRange(0, 1_000, unit: "W")) { $0.chargingWatts },
        RangeRule("batteryCapacityWh", .batteryCapacity) { $0.batteryCapacityWh },
        RangeRule("initialBatteryPercent", ValueRange(0, 100, unit: "%")) { $0.initialBatteryPercent },
        RangeRule("lowPowerModeAccept20Probability", .probability) { $0.lowPowerModeAccept20Probability },
        RangeRule("lowPowerModeAccept10Probability", .probability) { $0.lowPowerModeAccept10Probability },
    ]

    /// Of `apps.csv`: the content rate bounds the synthesised content
    /// stream's size (an unbounded rate would overflow its allocation).
    public static let app: [RangeRule<TraceApp>] = [
        RangeRule("contentUpdatesPerHour", ValueRange(0, 3_600, unit: "1/h")) { $0.contentUpdatesPerHour },
    ]

    /// Checks a trace set's header (the profiles and apps are all these rules read).
    public static func check(_ set: TraceSetHeader, directory: String) throws(InputFileError) {
        guard (1...ResourceLimits.maxDays).contains(set.days) else {
            throw InputFileError(file: directory + "/" + TraceSetFile.traceSet, line: 2, message: "\(set.days) days; allowed: 1 to \(ResourceLimits.maxDays)")
        }
        guard set.profiles.count <= ResourceLimits.maxUsers else {
            throw InputFileError(file: directory + "/users.csv", line: nil, message: "\(set.profiles.count) users; at most \(ResourceLimits.maxUsers) are allowed")
        }
        for (i, a) in set.apps.enumerated() {
            do { try app.checkAll(a, under: "app \(i) (\(a.name))") } catch {
                throw InputFileError(file: directory + "/" + TraceSetFile.apps, line: i + 2, message: "\(error.path): \(error.message)")
            }
        }
        // Without users.csv the power constants are synthesised, not read.
        for user in set.profiles where set.hasUsersFile {
            do { try profile.checkAll(user, under: "user \(user.index)") } catch {
                throw InputFileError(file: directory + "/users.csv", line: nil, message: "\(error.path): \(error.message)")
            }
        }
    }
}
