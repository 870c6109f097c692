import Device

// runs.csv's columns for a suite: the device's own, then Android's
// (`AndroidMetrics.columns`) only when some configuration runs on an
// Android device, so an iOS-only suite's runs.csv keeps its columns.
extension ExperimentSpec {
    /// Whether some configuration's device is Android.
    var runsAndroid: Bool {
        configurations.contains { device(for: $0).platform == .android }
    }
}

extension Runner {
    /// The columns of `spec`'s runs.csv, in order.
    static func columns(for spec: ExperimentSpec) -> [UserMetrics.Column] {
        spec.runsAndroid ? UserMetrics.columns + AndroidMetrics.columns : UserMetrics.columns
    }

    /// The metrics of `spec`'s runs.csv, in order (``metrics`` plus Android's when it runs Android).
    public static func metrics(for spec: ExperimentSpec) -> [MetricDescriptor] {
        columns(for: spec).map { MetricDescriptor(name: $0.name, unit: $0.unit, description: $0.description) }
    }
}
