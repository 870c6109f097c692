// The default app catalogue: the apps of the synthetic phone that do
// background work, with their categories. Every figure is an assumption
// unless a source is named; the sources are quoted in Datasets/References.md.
//
// Why 26 apps: real phones have about 96–97 installed apps (Yahoo Aviate and
// EverythingMe logs, quoted by Keshet et al. 2015, arXiv:1512.07851) and users
// use 10 to more than 90, median about 50 (Cao & Lin 2017, Pervasive and
// Mobile Computing survey). Most of those are rarely opened and do no
// background refresh; the catalogue holds the ones that matter for
// background refresh, and each user installs a subset of it
// (`installProbability`: about 17 apps per user on average).
//
// Popularity: skewed roughly exponentially across apps (Falaki et al.,
// MobiSys 2010), communication first (Böhmer et al., MobileHCI 2011; Morrison
// et al., CHI 2018). Time of day: news in the morning, games at night,
// communication all day (Böhmer et al. 2011). Content behaviour by category:
// messaging driven by other people (bursts of a conversation), mail bursty,
// news with a daily rhythm and bursts, weather on a schedule — assumption for
// every rate and burst size.

extension TraceApp {
    /// One catalogue row (keeps the table below readable).
    private static func app(_ name: String, _ category: String, rate: Double, amplitude: Double = 0,
                            peak: Double = 12, pattern: ContentPattern = .poisson, burst: Double = 1,
                            popularity: Double, habit: Double?, install: Double, routine: Double,
                            usageRhythm: Double) -> TraceApp {
        TraceApp(name: name, contentUpdatesPerHour: rate, contentRhythmAmplitude: amplitude,
                 contentPeakHour: peak, basePopularity: popularity, habitHour: habit, category: category,
                 installProbability: install, routineAffinity: routine, usageRhythmAmplitude: usageRhythm,
                 contentPattern: pattern, contentBurstMeanSize: burst, contentBurstGapMinutes: 3)
    }

    public static let defaultApps: [TraceApp] = [
        // Communication: most used, least routine (driven by other people).
        app("messaging", "communication", rate: 3, amplitude: 0.7, peak: 14, pattern: .bursty, burst: 4,
            popularity: 0.30, habit: nil, install: 0.98, routine: 0.3, usageRhythm: 0),
        app("mail", "communication", rate: 1.5, amplitude: 0.8, peak: 11, pattern: .bursty, burst: 3,
            popularity: 0.10, habit: 8.5, install: 0.9, routine: 0.8, usageRhythm: 0.4),
        app("group-chat", "communication", rate: 2, amplitude: 0.6, peak: 18, pattern: .bursty, burst: 5,
            popularity: 0.08, habit: nil, install: 0.6, routine: 0.3, usageRhythm: 0.2),
        app("work-chat", "communication", rate: 2, amplitude: 0.9, peak: 11, pattern: .bursty, burst: 4,
            popularity: 0.06, habit: 9, install: 0.4, routine: 0.7, usageRhythm: 0.6),
        // Social: evening-heavy feeds.
        app("social", "social", rate: 6, amplitude: 0.6, peak: 20,
            popularity: 0.20, habit: 21.5, install: 0.85, routine: 0.6, usageRhythm: 0.3),
        app("photos-social", "social", rate: 4, amplitude: 0.5, peak: 19,
            popularity: 0.10, habit: 22, install: 0.6, routine: 0.6, usageRhythm: 0.3),
        app("short-video", "social", rate: 3, amplitude: 0.5, peak: 21,
            popularity: 0.08, habit: 22.5, install: 0.5, routine: 0.7, usageRhythm: 0.5),
        app("dating", "social", rate: 0.5, amplitude: 0.5, peak: 21,
            popularity: 0.02, habit: 21, install: 0.15, routine: 0.5, usageRhythm: 0.5),
        // News: a daily rhythm with bursts (a breaking story), routine mornings.
        app("news", "news", rate: 2, amplitude: 0.7, peak: 8, pattern: .bursty, burst: 3,
            popularity: 0.06, habit: 7.5, install: 0.6, routine: 1.2, usageRhythm: 0.6),
        app("news-local", "news", rate: 0.5, amplitude: 0.6, peak: 9, pattern: .bursty, burst: 2,
            popularity: 0.03, habit: 12.5, install: 0.3, routine: 1.2, usageRhythm: 0.5),
        app("sports", "news", rate: 1, amplitude: 0.6, peak: 20, pattern: .bursty, burst: 3,
            popularity: 0.03, habit: 19, install: 0.3, routine: 1.0, usageRhythm: 0.5),
        app("stocks", "finance", rate: 1, amplitude: 0.9, peak: 15,
            popularity: 0.02, habit: 9.5, install: 0.2, routine: 1.0, usageRhythm: 0.6),
        // Weather: a model run every hour, on the hour's schedule.
        app("weather", "weather", rate: 1, pattern: .scheduled,
            popularity: 0.03, habit: 7, install: 0.8, routine: 1.4, usageRhythm: 0.7),
        // Entertainment.
        app("video", "entertainment", rate: 0.5, amplitude: 0.5, peak: 20,
            popularity: 0.06, habit: 21, install: 0.7, routine: 0.8, usageRhythm: 0.6),
        app("music", "entertainment", rate: 0.1,
            popularity: 0.05, habit: 8, install: 0.6, routine: 0.9, usageRhythm: 0.4),
        app("podcast", "entertainment", rate: 0.02, amplitude: 0.5, peak: 6, pattern: .scheduled,
            popularity: 0.03, habit: 17.5, install: 0.4, routine: 1.0, usageRhythm: 0.5),
        app("game", "games", rate: 0.05,
            popularity: 0.08, habit: 20.5, install: 0.5, routine: 0.9, usageRhythm: 0.7),
        app("puzzle", "games", rate: 0.02,
            popularity: 0.05, habit: 21.5, install: 0.3, routine: 0.9, usageRhythm: 0.7),
        // Tools and productivity: little content, some routine.
        app("browser", "tools", rate: 0,
            popularity: 0.08, habit: nil, install: 0.9, routine: 0.3, usageRhythm: 0),
        app("maps", "navigation", rate: 0.05,
            popularity: 0.03, habit: 8, install: 0.7, routine: 0.6, usageRhythm: 0.3),
        app("calendar", "productivity", rate: 0.2, amplitude: 0.5, peak: 10,
            popularity: 0.03, habit: 8, install: 0.6, routine: 1.0, usageRhythm: 0.4),
        app("notes", "productivity", rate: 0,
            popularity: 0.02, habit: nil, install: 0.5, routine: 0.4, usageRhythm: 0),
        app("shopping", "shopping", rate: 0.3, amplitude: 0.5, peak: 20,
            popularity: 0.03, habit: 20, install: 0.6, routine: 0.6, usageRhythm: 0.5),
        app("banking", "finance", rate: 0.05, amplitude: 0.3, peak: 12,
            popularity: 0.02, habit: 12, install: 0.6, routine: 0.8, usageRhythm: 0.4),
        app("fitness", "health", rate: 0.1, amplitude: 0.3, peak: 7,
            popularity: 0.02, habit: 7, install: 0.4, routine: 1.2, usageRhythm: 0.6),
        app("photos-backup", "photos", rate: 0,
            popularity: 0.03, habit: nil, install: 0.8, routine: 0.3, usageRhythm: 0),
    ]
}
